// CHANGELOG.md as a page of the docs. The changelog is written in a small part of Markdown
// (headings, lists, paragraphs, code, bold, links), which is all this turns into HTML.
import { type Edition, escapeHtml, withSwitcher } from './editions.ts';

export function changelogPage(markdown: string, all: readonly Edition[]): string {
  const html = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Animal Store API: changelog</title>',
    '<style>body{font:16px/1.5 sans-serif;max-width:52rem;margin:3rem auto;padding:0 1rem}code{background:#f4f4f4;padding:0 .2em}</style>',
    '</head><body><main>',
    ...blocks(markdown),
    '</main></body></html>',
  ].join('\n');
  return withSwitcher(html, all, 'changelog.html');
}

function blocks(markdown: string): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(' '))}</p>`);
    if (list.length) out.push(`<ul>${list.map((item) => `<li>${inline(item)}</li>`).join('')}</ul>`);
    paragraph = [];
    list = [];
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,6}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const level = (heading[1] as string).length;
      out.push(`<h${level}>${inline(heading[2] as string)}</h${level}>`);
    } else if (line.startsWith('- ')) {
      if (paragraph.length) flush();
      list.push(line.slice(2));
    } else if (line.trim() === '') flush();
    else if (list.length) list[list.length - 1] += ` ${line.trim()}`;
    else paragraph.push(line.trim());
  }
  flush();
  return out;
}

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}
