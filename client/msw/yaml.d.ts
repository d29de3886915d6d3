// A YAML file imported by the package's build, which embeds it parsed (see scripts/client/build.ts).
declare module '*.yaml' {
  const data: unknown;
  export default data;
}
