// The reference: a bare Node HTTP server doing the least possible for the same answers.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

const [, , portArg, jsonBody, assetPath] = process.argv;
const size = statSync(assetPath!).size;
const server = http.createServer((req, res) => {
  if (req.url === '/api/user') {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    return void res.end(jsonBody);
  }
  res.writeHead(200, { 'Content-Type': 'text/css', 'Content-Length': size });
  createReadStream(assetPath!).pipe(res);
});
server.listen(Number(portArg), '127.0.0.1', () => console.log('ready'));
