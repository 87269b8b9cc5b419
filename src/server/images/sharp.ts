import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips) adds about 25 MiB to the process once loaded: it is loaded by the first picture a
 * request or a thumbnail job handles, not at start, so an instance that serves no pictures never pays.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
