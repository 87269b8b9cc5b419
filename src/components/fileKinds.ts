/**
 * What kind of file an item is, for its icon and the readable kind in the details panel ("PNG
 * image"), from its stored mimetype and, where that says little, its name's extension. Pure: the
 * unit tests and every island use it.
 */
export type FileKind = 'pdf' | 'markdown' | 'csv' | 'spreadsheet' | 'presentation' | 'document' | 'archive' | 'audio' | 'video' | 'image' | 'code' | 'text' | 'other';

const BY_EXTENSION: Record<string, FileKind> = {
  pdf: 'pdf',
  md: 'markdown', markdown: 'markdown', mdx: 'markdown',
  csv: 'csv', tsv: 'csv',
  xls: 'spreadsheet', xlsx: 'spreadsheet', ods: 'spreadsheet', numbers: 'spreadsheet',
  ppt: 'presentation', pptx: 'presentation', odp: 'presentation', key: 'presentation',
  doc: 'document', docx: 'document', odt: 'document', rtf: 'document', pages: 'document', epub: 'document',
  zip: 'archive', rar: 'archive', '7z': 'archive', tar: 'archive', gz: 'archive', tgz: 'archive', bz2: 'archive', xz: 'archive', zst: 'archive',
  js: 'code', mjs: 'code', cjs: 'code', ts: 'code', tsx: 'code', jsx: 'code', py: 'code', rb: 'code', go: 'code', rs: 'code', java: 'code', kt: 'code', c: 'code', h: 'code', cpp: 'code', hpp: 'code',
  cs: 'code', php: 'code', swift: 'code', sh: 'code', bash: 'code', sql: 'code', html: 'code', htm: 'code', css: 'code', scss: 'code', json: 'code', yaml: 'code', yml: 'code', toml: 'code', xml: 'code', vue: 'code', svelte: 'code', astro: 'code',
  txt: 'text', log: 'text', ini: 'text', cfg: 'text', conf: 'text',
};

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export function fileKind(mimetype: string | null, name: string): FileKind {
  const type = (mimetype ?? '').toLowerCase().split(';')[0]!.trim();
  const byName = BY_EXTENSION[extensionOf(name)];
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'text/markdown') return 'markdown';
  if (type === 'text/csv' || type === 'text/tab-separated-values') return 'csv';
  if (/spreadsheet|ms-excel/.test(type)) return 'spreadsheet';
  if (/presentation|powerpoint/.test(type)) return 'presentation';
  if (/msword|wordprocessing|opendocument\.text|rtf|epub/.test(type)) return 'document';
  if (/zip|compressed|x-tar|x-rar|x-7z|gzip|x-bzip|x-xz|zstd/.test(type)) return byName === 'document' || byName === 'spreadsheet' || byName === 'presentation' ? byName : 'archive';
  if (byName) return byName;
  if (/javascript|typescript|json|xml|x-sh|x-python|x-php|html|css|yaml/.test(type)) return 'code';
  if (type.startsWith('text/')) return 'text';
  return 'other';
}

/** The format word for kinds that come in many formats: the extension, else the mimetype's subtype. */
export function formatOf(mimetype: string | null, name: string): string {
  const ext = extensionOf(name);
  if (ext && ext.length <= 5) return ext.toUpperCase();
  const subtype = (mimetype ?? '').split('/')[1]?.split(/[;+.]/)[0] ?? '';
  if (subtype === 'octet-stream') return '';
  return subtype === 'mpeg' ? 'MP3' : subtype.replace(/^x-/, '').toUpperCase();
}
