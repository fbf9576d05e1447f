// A Lictor client in Node: create a hosted match (you against an AI seat), watch it, ask the
// advisor for a hint, submit the hinted move, until the game is over.
//
//   npm install                      # @grpc/grpc-js and @grpc/proto-loader
//   node client.js [HOST:PORT] [GAME] [NAME=VALUE ...]
//
// The stubs are built at run time from the repository's proto/ files (proto-loader); see
// docs/clients.md for generated stubs (buf generate) instead.
//
// The one race a first-time client hits: WatchMatch streams every event, including the events of
// your own SubmitAction, and they can arrive BEFORE SubmitAction answers. A client that submits
// whenever an event says "your turn" then submits twice for one turn (the second gets ABORTED), or
// acts on a match older than the one it just made. This loop avoids it:
//   1. the watch stream is the only source of truth: it keeps `latest`, the newest match by
//      move_number (older or equal ones are dropped);
//   2. one decision at a time: while a SubmitAction is pending no other starts, and each move
//      number is decided at most once (`decided`);
//   3. every submit carries expected_move_number = the move number it was decided on; an ABORTED
//      answer only means the match moved on: the next event brings the new turn.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const definition = protoLoader.loadSync(
  ['lictor/v1/game_service.proto', 'lictor/v1/match_service.proto', 'lictor/v1/advisor_service.proto'],
  { includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true },
);
const lictor = grpc.loadPackageDefinition(definition).lictor.v1;

const address = process.argv[2] || process.env.LICTOR_ADDRESS || '127.0.0.1:50051';
const gameName = process.argv[3] || 'tiberpunk';
const options = {};
for (const spec of process.argv.slice(4)) {
  const [name, value] = spec.split('=');
  options[name] = /^-?\d+$/.test(value) ? { integer: value } : { text: value };
}

const credentials = grpc.credentials.createInsecure(); // createSsl(ca) for a TLS server
const games = new lictor.GameService(address, credentials);
const matches = new lictor.MatchService(address, credentials);
const advisor = new lictor.AdvisorService(address, credentials);
const metadata = new grpc.Metadata(); // metadata.add('authorization', 'Bearer ' + token)

function call(client, method, request, seconds = 60) {
  return new Promise((resolve, reject) => {
    client[method](request, metadata, { deadline: Date.now() + seconds * 1000 }, (err, reply) =>
      err ? reject(err) : resolve(reply),
    );
  });
}

const ME = 0; // our seat; seat 1 is the server's AI

async function main() {
  const content = await call(games, 'GetContent', { game: gameName });
  console.log(`${gameName}: content ${content.version}, ${content.items.length} components`);

  const { match } = await call(matches, 'CreateMatch', {
    game: gameName,
    seats: [
      { kind: 'SEAT_KIND_HUMAN', name: 'node client' },
      { kind: 'SEAT_KIND_AI', level: 1, name: 'AI' },
    ],
    options,
  });
  const id = match.match_id;
  console.log(`match ${id}`);

  let latest = { move_number: -1, status: '' }; // filled by the watch stream only (the seat's view)
  let decided = -1; // the last move number we decided on
  let busy = false;
  let done;
  const finished = new Promise((resolve) => (done = resolve));

  const watch = matches.WatchMatch({ match_id: id, viewer_seat: ME }, metadata);
  watch.on('data', ({ event, match: m }) => {
    if (event.description) console.log(`  ${event.move_number}: ${event.description}`);
    if (m.move_number >= latest.move_number) latest = m;
    if (event.kind === 'EVENT_KIND_GAME_OVER' || m.status === 'MATCH_STATUS_FINISHED') {
      done(m);
      return;
    }
    decide().catch((err) => {
      console.error(`error: ${err.code} ${err.details || err.message}`);
      process.exit(1);
    });
  });
  watch.on('error', (err) => {
    if (err.code !== grpc.status.CANCELLED) console.error(`watch: ${err.details}`);
  });

  async function decide() {
    if (busy) return; // one decision at a time; the loop below picks up newer turns
    busy = true;
    try {
      while (
        latest.status === 'MATCH_STATUS_ACTIVE' &&
        latest.summary.current_player === ME &&
        latest.move_number > decided
      ) {
        const turn = latest; // decide on this snapshot only
        decided = turn.move_number;
        const view = await call(games, 'Describe', {
          position: turn.position,
          viewer: { role: 'VIEWER_ROLE_SEAT', seat: ME },
        });
        console.log(view.description.headline + ' / ' + view.description.step);
        const hint = await call(advisor, 'Hint', {
          position: turn.position,
          top_k: 2,
          budget: { simulations: 64 },
        });
        const best = hint.hints[0];
        console.log(`  hint: ${best.action} (${best.reasons[0].sentence})${hint.why ? ' - ' + hint.why : ''}`);
        try {
          await call(matches, 'SubmitAction', {
            match_id: id,
            seat: ME,
            expected_move_number: turn.move_number,
            action: { text: best.action },
          });
        } catch (err) {
          if (err.code !== grpc.status.ABORTED) throw err; // ABORTED: the match moved on; wait
        }
      }
    } finally {
      busy = false;
    }
  }

  const end = await finished;
  watch.cancel();
  const returns = (end.returns || []).map((v, seat) => `seat ${seat}: ${v}`).join(', ');
  console.log(`game over after ${end.move_number} moves; returns ${returns}`);
  games.close();
  matches.close();
  advisor.close();
}

main().catch((err) => {
  console.error(`error: ${err.code} ${err.details || err.message}`);
  process.exit(1);
});
