// A YAML file imported by the package's build, which embeds it parsed (see client/build/).
declare module '*.yaml' {
  const data: unknown;
  export default data;
}
