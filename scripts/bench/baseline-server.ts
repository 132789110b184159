/**
 * The bench's baseline: a bare Express 5 hello-world with express.json(), answering the
 * load's `POST /api/v1/snap` with 201 and a small JSON body. Everything the real service
 * adds on top of this (logging, rate limit, auth, validation, database, predictor) is
 * what the ratio to this baseline measures.
 *   PORT=3999 node dist/scripts/bench/baseline-server.js
 */
import express from 'express';

const app = express();
app.use(express.json());
app.post('/api/v1/snap', (_req, res) => {
  res.status(201).json({ hello: 'world' });
});
const server = app.listen(Number(process.env['PORT'] ?? 3999), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
