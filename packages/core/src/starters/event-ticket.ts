import type { Starter } from './starter.ts';

const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
{%- set colour = accent_color | default("#e4405f") %}
<meta name="svc-canvas" content="1400x560">
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: "Liberation Sans", Arial, Helvetica, sans-serif; }
  .ticket { width: 1400px; height: 560px; display: flex; background: #f6f3ee; color: #1b1b1f; overflow: hidden; }
  .main { position: relative; flex: 1; padding: 56px 64px; display: flex; flex-direction: column; justify-content: space-between;
    background: radial-gradient(circle at 100% 100%, {{ colour }} 0, transparent 55%), #15151a; color: #fff; border-left: 18px solid {{ colour }}; }
  .event { max-width: 62%; }
  .kicker { font-size: 20px; font-weight: 700; letter-spacing: 0.22em; text-transform: uppercase; color: {{ colour }}; }
  h1 { margin: 14px 0 0; font-size: 64px; line-height: 1.02; letter-spacing: -0.02em; }
  .facts { display: flex; gap: 48px; }
  .fact small { display: block; font-size: 15px; letter-spacing: 0.16em; text-transform: uppercase; opacity: 0.7; margin-bottom: 6px; }
  .fact b { font-size: 28px; }
  .venue { position: absolute; right: 64px; top: 56px; text-align: right; font-size: 22px; line-height: 1.4; max-width: 32%; }
  .venue b { display: block; font-size: 26px; }
  .stub { width: 330px; border-left: 4px dashed #c8c1b4; padding: 48px 40px; display: flex; flex-direction: column; justify-content: space-between; }
  .stub small { display: block; font-size: 14px; letter-spacing: 0.16em; text-transform: uppercase; color: #6b6660; }
  .stub b { font-size: 30px; }
  .seat { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; }
  .seat b { font-size: 34px; }
  .holder { font-size: 20px; }
  .qr { display: flex; justify-content: center; }
  .qr svg { display: block; }
  .code { font: 700 22px/1 "DejaVu Sans Mono", "Liberation Mono", monospace; letter-spacing: 0.12em; padding: 14px 0; border-top: 2px solid #1b1b1f; border-bottom: 2px solid #1b1b1f; text-align: center; }
</style>
</head>
<body>
<div class="ticket" data-svc-page="ticket" data-svc-page-name="Ticket">
  <div class="main">
    <div class="event">
      <div class="kicker">{{ kicker | default("Admit one") }}</div>
      <h1>{{ event.name }}</h1>
    </div>
    <div class="venue"><b>{{ event.venue }}</b>{{ event.city }}</div>
    <div class="facts">
      <div class="fact"><small>Date</small><b>{{ event.date }}</b></div>
      <div class="fact"><small>Doors</small><b>{{ event.doors }}</b></div>
      <div class="fact"><small>Ticket</small><b>{{ ticket.type }}</b></div>
    </div>
  </div>
  <div class="stub">
    <div class="holder"><small>Ticket holder</small>{{ ticket.holder }}</div>
    <div class="seat">
      <div><small>Sec</small><b>{{ ticket.section }}</b></div>
      <div><small>Row</small><b>{{ ticket.row }}</b></div>
      <div><small>Seat</small><b>{{ ticket.seat }}</b></div>
    </div>
    <div class="qr">{{ ticket.url | default(ticket.code) | qrcode(size="150px") }}</div>
    <div class="code">{{ ticket.code }}</div>
  </div>
</div>
</body>
</html>
`;

export const eventTicketStarter: Starter = {
  id: 'event-ticket',
  name: 'Event ticket',
  description: 'A 1400×560 concert or conference ticket with a tear-off stub, seat, code and QR code.',
  tags: ['ticket', 'events', 'image'],
  inputMode: 'blank',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['event', 'ticket'],
    properties: {
      kicker: { type: 'string', title: 'Kicker', maxLength: 30 },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      event: {
        type: 'object',
        title: 'Event',
        required: ['name', 'venue', 'city', 'date', 'doors'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 60 },
          venue: { type: 'string', maxLength: 60 },
          city: { type: 'string', maxLength: 60 },
          date: { type: 'string', maxLength: 30 },
          doors: { type: 'string', maxLength: 20 },
        },
      },
      ticket: {
        type: 'object',
        title: 'Ticket',
        required: ['holder', 'type', 'section', 'row', 'seat', 'code'],
        properties: {
          holder: { type: 'string', maxLength: 60 },
          type: { type: 'string', maxLength: 20 },
          section: { type: 'string', maxLength: 6 },
          row: { type: 'string', maxLength: 6 },
          seat: { type: 'string', maxLength: 6 },
          code: { type: 'string', pattern: '^[A-Z0-9-]{4,24}$' },
          url: { type: 'string', title: 'Ticket URL', description: 'What the QR code carries, for the scanner at the door; the ticket code when left out.', maxLength: 300 },
        },
      },
    },
  },
  sampleData: {
    kicker: 'Admit one',
    accent_color: '#e4405f',
    event: { name: 'Northern Lights Live', venue: 'Usher Hall', city: 'Edinburgh', date: 'Sat 18 July 2026', doors: '19:00' },
    ticket: { holder: 'Jonas Lindqvist', type: 'Standard', section: 'B', row: '12', seat: '7', code: 'NLL-7Q4K-2291', url: 'https://tickets.example.com/t/NLL-7Q4K-2291' },
  },
  output: { type: 'image', format: 'png', width: 1400, height: 560 },
};
