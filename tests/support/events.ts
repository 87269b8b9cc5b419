import type { Client } from './client.ts';

/** A live event stream (GET /api/events) read by a test: its answer, and what arrived so far. */
export interface SseEvent {
  event: string;
  id: string | null;
  data: any;
}

export interface OpenStream {
  status: number;
  headers: Headers;
  body: any;
  events: SseEvent[];
  comments: string[];
  /** The server ended the stream. */
  ended: boolean;
  close(): void;
}

/** Opens the stream as the client (its cookie, or `bearer`), with extra headers; a refusal's JSON body is read. */
export async function openEvents(client: Client, options: { bearer?: string; headers?: Record<string, string>; query?: string } = {}): Promise<OpenStream> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'X-Forwarded-For': client.ip, ...options.headers };
  if (options.bearer) headers.Authorization = `Bearer ${options.bearer}`;
  else if (client.cookies.size) headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const abort = new AbortController();
  const res = await fetch(`${client.baseUrl}/api/events${options.query ?? ''}`, { headers, signal: abort.signal });
  const stream: OpenStream = { status: res.status, headers: res.headers, body: null, events: [], comments: [], ended: false, close: () => abort.abort() };
  if (res.status !== 200) {
    stream.body = await res.json().catch(() => null);
    return stream;
  }
  void read(res, stream).catch(() => undefined);
  return stream;
}

async function read(res: Response, stream: OpenStream): Promise<void> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      stream.ended = true;
      return;
    }
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('id: ')) id = line.slice(4);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) stream.events.push({ event, id, data: JSON.parse(data.join('\n')) });
      end = buffer.indexOf('\n\n');
    }
  }
}
