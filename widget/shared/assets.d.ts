// esbuild loads these as strings (scripts/page-assets.mjs): the loader's stylesheet and inline icons.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "*.svg" {
  const text: string;
  export default text;
}
