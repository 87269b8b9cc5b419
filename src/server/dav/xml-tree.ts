import { SaxesParser } from 'saxes';
import { badRequest, isAppError } from '../http/errors.ts';

const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** XML text escaping (xml.ts re-exports it). */
export function escapeXml(value: string): string {
  return value.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
}

export interface XmlAttribute {
  ns: string;
  local: string;
  value: string;
}

/** An element of a request body: namespace URI ('' for none), local name, attributes, children. */
export interface XmlElement {
  ns: string;
  local: string;
  attributes: XmlAttribute[];
  children: (XmlElement | string)[];
}

/**
 * How deep a request body's elements may nest. A dead property is stored and sent back as it came,
 * by recursive code: thousands of levels would overflow the stack there. Real clients nest a few.
 */
export const MAX_XML_DEPTH = 100;

/**
 * A small request body (LOCK, PROPPATCH; at most 1 MiB, bounded by the caller) as a tree.
 * Not well-formed XML, XML breaking the namespace rules, or elements nested deeper than
 * MAX_XML_DEPTH, is a 400 naming the method.
 */
export function parseXmlTree(body: string, what: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  parser.on('opentag', (tag) => {
    if (stack.length >= MAX_XML_DEPTH) throw badRequest(`The ${what} body nests elements more than ${MAX_XML_DEPTH} deep.`);
    const attributes = Object.values(tag.attributes)
      .filter((a) => a.uri !== XMLNS && a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => ({ ns: a.uri, local: a.local, value: a.value }));
    const element: XmlElement = { ns: tag.uri, local: tag.local, attributes, children: [] };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (text) => void stack.at(-1)?.children.push(text));
  parser.on('cdata', (text) => void stack.at(-1)?.children.push(text));
  try {
    parser.write(body).close();
  } catch (error) {
    if (isAppError(error)) throw error;
    throw badRequest(`The ${what} body is not well-formed XML (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!root) throw badRequest(`The ${what} body has no root element.`);
  return root;
}

/** The child elements of `element` (text between them left out). */
export function childElements(element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string');
}

export function isDav(element: XmlElement, local: string): boolean {
  return element.ns === 'DAV:' && element.local === local;
}

const attr = (value: string) => escapeXml(value).replace(/"/g, '&quot;');

/**
 * Serialises an element's content so it can be stored and sent back inside any other document:
 * every element declares its own default namespace (`xmlns=""` for none), attributes in a
 * namespace get a prefix declared on the same element. Text is escaped.
 */
export function serializeContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? escapeXml(child) : serializeElement(child))).join('');
}

export function serializeElement(element: XmlElement): string {
  const attributes = element.attributes.map((a, i) => (a.ns ? ` xmlns:a${i}="${attr(a.ns)}" a${i}:${a.local}="${attr(a.value)}"` : ` ${a.local}="${attr(a.value)}"`));
  const open = `${element.local} xmlns="${attr(element.ns)}"${attributes.join('')}`;
  const content = serializeContent(element);
  return content ? `<${open}>${content}</${element.local}>` : `<${open}/>`;
}

/** An empty element named like a property, for propstat lists: `<d:x/>` in DAV:, else its own default namespace. */
export function propertyElement(ns: string, local: string, content = ''): string {
  if (ns === 'DAV:') return content ? `<d:${local}>${content}</d:${local}>` : `<d:${local}/>`;
  return content ? `<${local} xmlns="${attr(ns)}">${content}</${local}>` : `<${local} xmlns="${attr(ns)}"/>`;
}
