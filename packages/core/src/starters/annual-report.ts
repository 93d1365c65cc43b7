import type { Starter } from './starter.ts';

// Laid out into pages by Paged.js (the svc-paged meta): the contents' page numbers and the
// "see page N" references are target-counter, the running heads string-set, the notes
// float: footnote. No leader() and no counter() in string-set, which Paged.js 0.4.3 lacks.
const source = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="svc-paged" content="on">
{%- set colour = accent_color | default("#1d4e5f") %}
<title>{{ organisation }}: {{ title }}</title>
<style>
  @page {
    size: A4;
    margin: 26mm 22mm 24mm;
    @top-left { content: string(report); font: 600 7.5pt/1 Inter, "Liberation Sans", sans-serif; letter-spacing: 0.08em; text-transform: uppercase; color: #6b7c88; vertical-align: bottom; padding-bottom: 5mm; }
    @top-right { content: string(chapter); font: 7.5pt/1 Inter, "Liberation Sans", sans-serif; letter-spacing: 0.08em; text-transform: uppercase; color: {{ colour }}; vertical-align: bottom; padding-bottom: 5mm; }
    @footnote { border-top: 0.4pt solid #9aa8b2; padding-top: 2.5mm; margin-top: 5mm; }
  }
  @page :left { @bottom-left { content: counter(page); font: 600 8.5pt/1 Inter, "Liberation Sans", sans-serif; color: #1b2a33; vertical-align: top; padding-top: 6mm; } }
  @page :right { @bottom-right { content: counter(page); font: 600 8.5pt/1 Inter, "Liberation Sans", sans-serif; color: #1b2a33; vertical-align: top; padding-top: 6mm; } }
  @page :first { margin: 0; @top-left { content: none; } @top-right { content: none; } @bottom-right { content: none; } }
  @page contents { @top-right { content: "Contents"; } }
  * { box-sizing: border-box; }
  html { font: 10pt/1.55 "Noto Serif", "Liberation Serif", serif; color: #1b2a33; }
  body { margin: 0; }
  h1, h2, h3, .sans { font-family: Inter, "Liberation Sans", sans-serif; }

  .cover { position: relative; width: 210mm; height: 297mm; overflow: hidden; break-after: page; background: #fff; }
  .cover .band { position: absolute; left: 0; top: 0; width: 100%; height: 168mm; background: {{ colour }}; }
  .cover .band::after { content: ""; position: absolute; left: 22mm; bottom: 0; width: 40mm; height: 3mm; background: #f2b134; }
  .cover .organisation { position: absolute; left: 22mm; top: 24mm; color: #fff; font: 700 10pt/1 Inter, "Liberation Sans", sans-serif; letter-spacing: 0.28em; text-transform: uppercase; }
  .cover .heading { position: absolute; left: 22mm; right: 22mm; bottom: 147mm; color: #fff; }
  .cover .kind { font: 600 11pt/1 Inter, "Liberation Sans", sans-serif; letter-spacing: 0.22em; text-transform: uppercase; opacity: 0.8; }
  .cover h1 { margin: 5mm 0 0; font-size: 40pt; line-height: 1.05; letter-spacing: -0.02em; string-set: report content(text); }
  .cover .subtitle { position: absolute; left: 22mm; right: 40mm; top: 182mm; font-size: 14pt; line-height: 1.45; color: #3c4d58; }
  .cover .details { position: absolute; left: 22mm; right: 22mm; bottom: 20mm; display: flex; gap: 14mm; padding-top: 5mm; border-top: 0.4mm solid #d5dde2; font: 8.5pt/1.4 Inter, "Liberation Sans", sans-serif; color: #6b7c88; }
  .cover .details b { display: block; margin-top: 1mm; font-size: 10pt; font-weight: 600; color: #1b2a33; }

  nav.contents { page: contents; break-after: page; }
  nav.contents h2 { margin: 0 0 10mm; font-size: 24pt; font-weight: 700; letter-spacing: -0.01em; color: {{ colour }}; }
  nav.contents ol { list-style: none; margin: 0; padding: 0; }
  nav.contents > ol > li { margin-bottom: 6mm; }
  nav.contents a { display: flex; align-items: baseline; color: inherit; text-decoration: none; }
  nav.contents a::after { content: target-counter(attr(href), page); min-width: 8mm; text-align: right; font-variant-numeric: tabular-nums; }
  nav.contents .chapter-link { font: 600 12pt/1.4 Inter, "Liberation Sans", sans-serif; }
  nav.contents .chapter-link .number { width: 10mm; color: {{ colour }}; }
  nav.contents .section-link { margin-left: 10mm; font-size: 10pt; line-height: 1.9; color: #3c4d58; }
  nav.contents .fill { flex: 1; margin: 0 2mm; border-bottom: 0.6pt dotted #9aa8b2; }

  section.chapter { break-before: page; }
  .chapter-head { margin-bottom: 9mm; padding-bottom: 6mm; border-bottom: 0.4pt solid #c9d3da; }
  .chapter-number { font: 600 9pt/1 Inter, "Liberation Sans", sans-serif; letter-spacing: 0.22em; text-transform: uppercase; color: {{ colour }}; }
  h1 { margin: 3mm 0 0; font-size: 26pt; line-height: 1.1; letter-spacing: -0.015em; string-set: chapter content(text); }
  .lead { margin: 5mm 0 0; font-size: 12.5pt; line-height: 1.5; color: #3c4d58; }
  h2 { margin: 8mm 0 3mm; font-size: 12.5pt; line-height: 1.3; break-after: avoid; }
  h2 .number { display: inline-block; min-width: 10mm; color: {{ colour }}; }
  p { margin: 0 0 3mm; text-align: justify; hyphens: auto; widows: 2; orphans: 2; }
  a.see { color: inherit; text-decoration: none; }
  a.see::after { content: " (see page " target-counter(attr(href), page) ")"; white-space: nowrap; }

  table { width: 100%; margin: 3mm 0 5mm; border-collapse: collapse; font: 8.5pt/1.4 Inter, "Liberation Sans", sans-serif; break-inside: avoid; }
  caption { caption-side: bottom; padding-top: 2mm; text-align: left; font-size: 7.5pt; color: #6b7c88; }
  th { padding: 1.6mm 2mm; border-bottom: 0.8pt solid {{ colour }}; text-align: left; font-weight: 600; color: {{ colour }}; }
  td { padding: 1.6mm 2mm; border-bottom: 0.3pt solid #d5dde2; }
  th:not(:first-child), td:not(:first-child) { text-align: right; font-variant-numeric: tabular-nums; }

  .footnote { float: footnote; font: 7.5pt/1.45 "Noto Serif", "Liberation Serif", serif; color: #3c4d58; text-align: left; hyphens: manual; }
  ::footnote-call { content: counter(footnote); vertical-align: super; font-size: 65%; line-height: 0; color: {{ colour }}; }
  ::footnote-marker { content: counter(footnote) ". "; color: {{ colour }}; }
</style>
</head>
<body>
<div class="cover">
  <div class="band"></div>
  <div class="organisation">{{ organisation }}</div>
  <div class="heading">
    <div class="kind">{{ kind }}</div>
    <h1>{{ title }}</h1>
  </div>
  <div class="subtitle">{{ subtitle }}</div>
  <div class="details">
    <div>Reporting period<b>{{ period }}</b></div>
    <div>Published<b>{{ published_on }}</b></div>
    <div>Prepared by<b>{{ prepared_by }}</b></div>
  </div>
</div>

<nav class="contents">
  <h2>Contents</h2>
  <ol>
  {%- for chapter in chapters %}
    {%- set c = loop.index %}
    <li>
      <a class="chapter-link" href="#chapter-{{ c }}"><span class="number">{{ c }}</span><span>{{ chapter.title }}</span><span class="fill"></span></a>
      <ol>
      {%- for section in chapter.sections %}
        <li><a class="section-link" href="#{{ section.id }}"><span>{{ c }}.{{ loop.index }}&ensp;{{ section.title }}</span><span class="fill"></span></a></li>
      {%- endfor %}
      </ol>
    </li>
  {%- endfor %}
  </ol>
</nav>

{% for chapter in chapters -%}
{%- set c = loop.index %}
<section class="chapter" id="chapter-{{ c }}">
  <header class="chapter-head">
    <div class="chapter-number">Chapter {{ c }}</div>
    <h1>{{ chapter.title }}</h1>
    <p class="lead">{{ chapter.lead }}</p>
  </header>
  {%- for section in chapter.sections %}
  <section>
    {#- the anchor is on the heading: a section's box can start on the page before its heading #}
    <h2 id="{{ section.id }}"><span class="number">{{ c }}.{{ loop.index }}</span>{{ section.title }}</h2>
    {%- for paragraph in section.paragraphs %}
    <p>{{ paragraph.text }}
      {%- if paragraph.see %} <a class="see" href="#{{ paragraph.see.section }}">{{ paragraph.see.text }}</a>.{% endif %}
      {%- if paragraph.footnote %}<span class="footnote">{{ paragraph.footnote }}</span>{% endif %}</p>
    {%- endfor %}
    {%- if section.table %}
    <table>
      <caption>{{ section.table.caption }}</caption>
      <thead><tr>{% for column in section.table.columns %}<th>{{ column }}</th>{% endfor %}</tr></thead>
      <tbody>
      {%- for row in section.table.rows %}
        <tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>
      {%- endfor %}
      </tbody>
    </table>
    {%- endif %}
  </section>
  {%- endfor %}
</section>
{% endfor %}
</body>
</html>
`;

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });

export const annualReportStarter: Starter = {
  id: 'annual-report',
  name: 'Annual report',
  description: 'A multi-page A4 annual report: cover, contents with page numbers, chapters with running heads, tables, footnotes and cross-references.',
  tags: ['report', 'business', 'pdf'],
  inputMode: 'html',
  source,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['organisation', 'kind', 'title', 'subtitle', 'period', 'published_on', 'prepared_by', 'chapters'],
    properties: {
      organisation: { ...text(60), title: 'Organisation' },
      kind: { ...text(40), title: 'Kind', description: 'Above the title on the cover, e.g. "Report of the board to members".' },
      title: { ...text(100), title: 'Title', description: 'The cover title, repeated in the running head of every page.' },
      subtitle: { ...text(240), title: 'Subtitle' },
      period: { ...text(60), title: 'Reporting period' },
      published_on: { ...text(40), title: 'Published' },
      prepared_by: { ...text(80), title: 'Prepared by' },
      accent_color: { type: 'string', title: 'Accent colour', pattern: '^#[0-9a-fA-F]{6}$' },
      chapters: {
        type: 'array',
        title: 'Chapters',
        description: 'Each starts on a new page and is listed in the contents with its sections.',
        minItems: 1,
        maxItems: 12,
        items: {
          type: 'object',
          required: ['title', 'lead', 'sections'],
          properties: {
            title: { ...text(80), title: 'Title' },
            lead: { ...text(600), title: 'Lead paragraph' },
            sections: {
              type: 'array',
              title: 'Sections',
              minItems: 1,
              maxItems: 20,
              items: {
                type: 'object',
                required: ['id', 'title', 'paragraphs'],
                properties: {
                  id: { type: 'string', title: 'Anchor', description: 'Unique in the report; what a cross-reference names.', pattern: '^[a-z][a-z0-9-]{0,40}$' },
                  title: { ...text(100), title: 'Title' },
                  paragraphs: {
                    type: 'array',
                    title: 'Paragraphs',
                    minItems: 1,
                    maxItems: 40,
                    items: {
                      type: 'object',
                      required: ['text'],
                      properties: {
                        text: { ...text(3000), title: 'Text' },
                        footnote: { ...text(600), title: 'Footnote', description: 'Printed at the foot of the page, called after the paragraph.' },
                        see: {
                          type: 'object',
                          title: 'Cross-reference',
                          description: 'Words after the paragraph that point to a section, followed by "(see page N)".',
                          required: ['section', 'text'],
                          properties: {
                            section: { type: 'string', title: 'Section anchor', pattern: '^[a-z][a-z0-9-]{0,40}$' },
                            text: { ...text(200), title: 'Words' },
                          },
                        },
                      },
                    },
                  },
                  table: {
                    type: 'object',
                    title: 'Table',
                    required: ['caption', 'columns', 'rows'],
                    properties: {
                      caption: { ...text(200), title: 'Caption' },
                      columns: { type: 'array', title: 'Columns', minItems: 1, maxItems: 8, items: { type: 'string', maxLength: 40 } },
                      rows: { type: 'array', title: 'Rows', maxItems: 60, items: { type: 'array', maxItems: 8, items: { type: 'string', maxLength: 60 } } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  sampleData: {
    organisation: 'Fenmoor Community Energy',
    kind: 'Report of the board to members',
    title: 'Annual report 2025',
    subtitle: 'Our fourth year generating clean electricity for the villages of the Fenmoor valley, and what the surplus paid for.',
    period: '1 January – 31 December 2025',
    published_on: 'March 2026',
    prepared_by: 'The board of directors',
    accent_color: '#1d4e5f',
    chapters: [
      {
        title: 'The year in brief',
        lead: 'Our three sites generated more electricity than in any year since we were founded, membership passed two thousand, and the community fund made its largest round of grants so far.',
        sections: [
          {
            id: 'highlights',
            title: 'Highlights',
            paragraphs: [
              {
                text: 'Generation reached 4,180 MWh, 6% above our forecast and 11% above 2024, helped by a bright spring and by the new inverters at Marsh Lane running for a full year. Every unit we generated was sold, either to the grid under our power purchase agreement or directly to the school, the surgery and the leisure centre on our private wire.',
              },
              {
                text: 'The surplus after interest and tax was £212,400. The board recommends that £64,000 of it goes to the community fund and the rest to reserves, in line with the policy members approved in 2023.',
                see: { section: 'reserves', text: 'The reasons for holding reserves at their present level are set out under Reserves and risk' },
              },
            ],
            table: {
              caption: 'Key figures for the year. MWh: megawatt hours.',
              columns: ['', '2025', '2024', 'Change'],
              rows: [
                ['Electricity generated (MWh)', '4,180', '3,766', '+11%'],
                ['Turnover', '£742,900', '£668,300', '+11%'],
                ['Surplus after interest and tax', '£212,400', '£171,900', '+24%'],
                ['Members', '2,046', '1,834', '+212'],
                ['Community fund grants', '£58,750', '£41,200', '+43%'],
                ['Carbon avoided (tonnes CO₂e)', '866', '781', '+11%'],
              ],
            },
          },
          {
            id: 'chair',
            title: 'Letter from the chair',
            paragraphs: [
              {
                text: 'When twelve of us met in the back room of the Plough in 2019, the idea of a co-operative that owned its own solar farm seemed ambitious. Four years after the first panels went in at Marsh Lane, we own three sites, employ two people, and have returned more than £380,000 to members in interest.',
              },
              {
                text: 'This year asked more of the board than any before it. The grid operator’s delay to our second connection at Holt Fen meant a summer of careful negotiation, and the fall in wholesale prices in the autumn reminded us why we keep a prudent reserve. I am grateful to our staff, to the volunteers who run the energy advice surgeries, and to every member who came to the open days.',
                footnote: 'The connection offer from the distribution network operator was revised twice during 2025; the correspondence is available to members on request from the secretary.',
              },
              {
                text: 'At the annual general meeting in May the board will ask members to approve interest of 3.5% on share capital for the year, the same rate as last year. Details of the resolution are in the notice of meeting that accompanies this report.',
                see: { section: 'interest', text: 'How the rate was set is explained under Interest to members' },
              },
            ],
          },
        ],
      },
      {
        title: 'Generation and operations',
        lead: 'Marsh Lane, Holt Fen and the school rooftops together have 4.3 MW of capacity. Availability stayed above 99% at every site, and the only long outage was planned.',
        sections: [
          {
            id: 'output',
            title: 'Output from our sites',
            paragraphs: [
              {
                text: 'Marsh Lane remains our largest site and produced almost three quarters of the year’s electricity. Holt Fen ran below its potential for most of the summer while its export was limited to 1 MW, and the rooftop arrays on the primary school and the leisure centre performed close to their modelled output.',
                footnote: 'Modelled output is the P50 estimate from the independent yield assessment carried out before each site was built, adjusted for the year’s measured irradiance.',
              },
            ],
            table: {
              caption: 'Generation by site. Capacity in megawatts peak (MWp); output in megawatt hours.',
              columns: ['Site', 'Capacity (MWp)', 'Output (MWh)', 'Availability'],
              rows: [
                ['Marsh Lane solar farm', '3.1', '3,062', '99.4%'],
                ['Holt Fen solar farm', '1.0', '892', '99.1%'],
                ['Fenmoor Primary School roof', '0.12', '118', '99.8%'],
                ['Valley Leisure Centre roof', '0.11', '108', '99.6%'],
              ],
            },
          },
          {
            id: 'maintenance',
            title: 'Maintenance and availability',
            paragraphs: [
              {
                text: 'Our operations and maintenance contractor carried out the annual inspection of all four sites in March and a thermal survey by drone in July. The survey found eleven modules with failed bypass diodes at Marsh Lane; all were replaced under warranty within three weeks.',
              },
              {
                text: 'The planned outage at Marsh Lane in October, to replace the transformer cooling fans, took two days rather than the four we had allowed. Sheep grazing between the rows continued from April to September and kept mowing to a single cut in the autumn.',
              },
            ],
          },
          {
            id: 'grid',
            title: 'Grid connection at Holt Fen',
            paragraphs: [
              {
                text: 'Holt Fen was built with a connection agreement for 1.5 MW, but reinforcement work at the primary substation slipped from spring to December. Until it was finished we could export no more than 1 MW, and we estimate that the limit cost us 96 MWh of generation, or about £14,000 of income.',
                footnote: 'The estimate compares the export recorded at Holt Fen with the output of Marsh Lane on the same days, scaled by the capacity of each site.',
              },
              {
                text: 'The full connection was energised on 9 December. We expect Holt Fen to generate around 1,250 MWh in 2026, and we are in discussion with the operator about a further 0.5 MW of battery storage on the same connection.',
              },
            ],
          },
        ],
      },
      {
        title: 'Members and community',
        lead: 'A co-operative belongs to its members. This year more of them joined, more of them came to meetings, and the community fund reached further across the valley than ever before.',
        sections: [
          {
            id: 'membership',
            title: 'Membership',
            paragraphs: [
              {
                text: 'We welcomed 212 new members in 2025, most of them through the share offer that raised £310,000 towards the Holt Fen extension. Two thirds of our members live within fifteen miles of a site, and the median holding is £500.',
              },
              {
                text: 'Attendance at the annual general meeting rose to 164 members in person and 97 online. The two open days at Marsh Lane brought more than 400 visitors, many of them families who came for the guided walks and stayed to ask about joining.',
              },
            ],
          },
          {
            id: 'community-fund',
            title: 'The community fund',
            paragraphs: [
              {
                text: 'The fund made 23 grants totalling £58,750. The largest, £12,000, paid for insulation and a heat pump at Fenmoor village hall, which now costs its committee a third of what it did to heat. Smaller grants supported the youth football club’s floodlights, a repair café, and a minibus for the over-sixties lunch club.',
                footnote: 'Grants are decided by a panel of four members and two residents who are not members, chosen each year at the annual general meeting.',
              },
              {
                text: 'The fund is paid for from the surplus, so its size depends on how the sites perform and on the prices we achieve.',
                see: { section: 'income', text: 'The year’s income and costs are summarised under Income and expenditure' },
              },
            ],
          },
          {
            id: 'advice',
            title: 'Energy advice',
            paragraphs: [
              {
                text: 'Our volunteers held 38 advice surgeries in libraries and village halls, and made 126 home visits to households struggling with their bills. Around half of the people they saw were able to switch to a cheaper tariff or claim support they had been missing, and 41 homes received draught-proofing from our small-measures budget.',
              },
            ],
          },
        ],
      },
      {
        title: 'Finances',
        lead: 'Turnover rose by 11% to £742,900. Costs were close to budget, and the co-operative ends the year with a stronger balance sheet and £1.02 million of reserves.',
        sections: [
          {
            id: 'income',
            title: 'Income and expenditure',
            paragraphs: [
              {
                text: 'Sales of electricity under the power purchase agreement made up most of our income, at an average of 14.9p per kilowatt hour. The private wire to the school, surgery and leisure centre earned a further £96,300 at a fixed price that is reviewed each April.',
              },
            ],
            table: {
              caption: 'Summary income and expenditure account. The full audited accounts are available from the secretary.',
              columns: ['', '2025', '2024'],
              rows: [
                ['Electricity sales', '£623,400', '£561,700'],
                ['Private wire sales', '£96,300', '£88,900'],
                ['Other income', '£23,200', '£17,700'],
                ['Operations and maintenance', '(£118,600)', '(£109,400)'],
                ['Land rent, rates and insurance', '(£84,100)', '(£80,300)'],
                ['Staff and administration', '(£71,500)', '(£66,200)'],
                ['Depreciation', '(£162,000)', '(£151,000)'],
                ['Interest to members', '(£61,900)', '(£57,400)'],
                ['Surplus after interest and tax', '£212,400', '£171,900'],
              ],
            },
          },
          {
            id: 'interest',
            title: 'Interest to members',
            paragraphs: [
              {
                text: 'Our rules allow interest on share capital of up to 5%, at a rate the board proposes and members approve. The board sets the proposal by first meeting the cost of running and insuring the sites, then the reserve the lenders require, and only then asking how much can be paid to members without weakening the co-operative.',
              },
              {
                text: 'For 2025 that gives a rate of 3.5%, which will cost £64,800 and be paid in June to the members’ nominated accounts.',
                footnote: 'Members may instead choose to leave their interest invested as additional share capital; 31% did so last year.',
              },
            ],
          },
          {
            id: 'reserves',
            title: 'Reserves and risk',
            paragraphs: [
              {
                text: 'We hold reserves equal to at least eighteen months of operating costs and the next major replacement, the Marsh Lane inverters, which will fall due around 2033. At the year end reserves stood at £1.02 million against a target of £940,000.',
              },
              {
                text: 'The main risks to the co-operative remain wholesale electricity prices after our power purchase agreement ends in 2027, further delays to grid reinforcement, and the condition of the inverters as they age. The board reviews the risk register each quarter and reports on it at every annual general meeting.',
              },
            ],
          },
        ],
      },
    ],
  },
  output: { type: 'pdf', pdf: { format: 'A4', margins: { top: '0mm', right: '0mm', bottom: '0mm', left: '0mm' } } },
};
