/**
 * The try-out page (GET /tryout): the team's leads, and buttons that make the events the examples react to. Plain
 * HTML and script, no build step; it talks only to ./routes.ts on the same origin.
 */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lofty sandbox: make events</title>
<style>
  :root { color-scheme: light dark; --line: #8884; --muted: #777; --accent: #2f6fde; }
  body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 16px 24px 48px; }
  h1 { font-size: 20px; margin: 8px 0 4px; }
  h2 { font-size: 15px; margin: 22px 0 6px; }
  p.help { color: var(--muted); margin: 4px 0 10px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border-bottom: 1px solid var(--line); padding: 5px 6px; text-align: left; vertical-align: middle; }
  th { font-weight: 600; font-size: 12px; color: var(--muted); }
  input, select, button { font: inherit; padding: 3px 6px; }
  button { cursor: pointer; border: 1px solid var(--accent); background: transparent; color: var(--accent); border-radius: 4px; }
  button:hover { background: #2f6fde22; }
  button:disabled { opacity: 0.35; cursor: not-allowed; background: transparent; }
  #result { min-height: 22px; padding: 6px 10px; border-radius: 4px; margin: 10px 0; }
  #result.ok { background: #1a7f3722; } #result.fail { background: #cf222e22; }
  .row { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
  .none { color: var(--muted); font-style: italic; }
  td.actions { white-space: nowrap; }
  code { font-size: 12px; }
</style>
</head>
<body>
<h1>Lofty sandbox: make the events your workflows react to</h1>
<p class="help">Each button changes the sandbox as Lofty would, and the sandbox sends the event to every workflow that
listens: a <b>published</b> workflow with a Lofty Trigger, or one whose trigger waits after <b>Execute step</b> /
<b>Execute workflow</b> in the editor. The examples react like this: <i>Lead and pipeline trigger</i> to a new lead and a
stage change, <i>Call recording</i> to a recorded dialer call.</p>

<div id="result" role="status" aria-live="polite"></div>

<h2>Listening now</h2>
<div id="subscriptions" data-test="subscriptions"></div>

<h2>Webhook deliveries</h2>
<p class="help">What the sandbox sent, newest first, and the answer it got (n8n answers 200 when it took the event; the Lofty Trigger then says how many events started its workflow: <em>filtered out (started: 0)</em> when its filters dropped them all).</p>
<table data-test="deliveries">
  <thead><tr><th>Time (UTC)</th><th>Event</th><th>Keys</th><th>To</th><th>Answer</th></tr></thead>
  <tbody id="deliveries"></tbody>
</table>

<h2>New lead</h2>
<form id="new-lead" class="row" data-test="new-lead">
  <input name="firstName" placeholder="First name" required>
  <input name="lastName" placeholder="Last name">
  <input name="email" type="email" placeholder="Email">
  <input name="phone" placeholder="Phone">
  <input name="source" placeholder="Source" value="Try-out page">
  <button type="submit" data-action="lead">Create lead</button>
</form>

<h2>Leads</h2>
<p class="help">Change a stage (Pipeline Change event), call with a recording (Call event), send a text or an email
(Text, Email events). The newest leads first.</p>
<div class="row"><input id="search" type="search" placeholder="Search name, email or phone"></div>
<table data-test="leads">
  <thead><tr><th>Lead</th><th>Stage</th><th>Phone</th><th>Email</th><th>Events</th></tr></thead>
  <tbody id="leads"></tbody>
</table>


<script>
const $ = (s) => document.querySelector(s);
const esc = (v) => String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
let stages = [];

function showResult(r) {
  const el = $('#result');
  el.textContent = r.detail;
  el.className = r.ok ? 'ok' : 'fail';
  el.dataset.ok = String(r.ok);
}

async function post(body) {
  const res = await fetch('/tryout/events', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const r = await res.json();
  showResult(r);
  await refresh(true);
  return r;
}

function stageSelect(lead) {
  const names = stages.includes(lead.stage) ? stages : [lead.stage, ...stages];
  return '<select data-field="stage" aria-label="Stage of ' + esc(lead.name) + '">' +
    names.map((s) => '<option' + (s === lead.stage ? ' selected' : '') + '>' + esc(s) + '</option>').join('') + '</select>';
}

function renderLeads(leads) {
  $('#leads').innerHTML = leads.length ? leads.map((l) =>
    '<tr data-test="lead-row" data-lead-id="' + esc(l.leadId) + '" data-name="' + esc(l.name) + '">' +
    '<td>' + esc(l.name) + '<br><code>' + esc(l.leadId) + '</code></td>' +
    '<td class="row">' + stageSelect(l) + '<button data-action="stage">Change stage</button></td>' +
    '<td>' + esc(l.phone) + '</td><td>' + esc(l.email) + '</td>' +
    '<td class="actions"><button data-action="call">Call (recorded)</button> ' +
    '<button data-action="text"' + (l.phone ? '' : ' disabled title="no phone"') + '>Text</button> ' +
    '<button data-action="email"' + (l.email ? '' : ' disabled title="no email"') + '>Email</button></td></tr>').join('')
    : '<tr><td colspan="5" class="none">No lead matches.</td></tr>';
}

function renderSubscriptions(subs) {
  $('#subscriptions').innerHTML = subs.length
    ? '<table><thead><tr><th>Event</th><th>Sent to</th><th>State</th></tr></thead><tbody>' + subs.map((s) =>
      '<tr data-test="subscription"><td>' + esc(s.event) + '</td><td><code>' + esc(s.callbackUrl) + '</code></td><td>' + (s.active ? 'active' : 'disabled') + '</td></tr>').join('') + '</tbody></table>'
    : '<p class="none">No workflow listens yet. Publish a workflow that starts with a Lofty Trigger (for example the call-recording example), or open it and click Execute workflow: its events then appear here.</p>';
}

// A delivery the trigger answered with started: 0 ran no workflow (its filters dropped every event); a duplicate ran
// nothing twice; any other answer is shown as it came.
function deliveryOutcome(d) {
  const said = (d.status ? d.status + ' ' : '') + d.outcome + (d.error ? ' (' + d.error + ')' : '');
  if (d.outcome !== 'delivered') return said;
  if (d.started === '') return d.answered ? said + ', ' + d.answered : said;
  return d.started === '0' ? said + ', filtered out (started: 0)' : said + ', started the workflow (started: ' + d.started + ')';
}

function renderDeliveries(rows) {
  $('#deliveries').innerHTML = rows.length ? rows.map((d) =>
    '<tr data-test="delivery" data-outcome="' + esc(d.outcome) + '"><td>' + esc(d.time.slice(11, 19)) + '</td><td>' + esc(d.event) + '</td><td>' + esc(d.keys) + '</td>' +
    '<td><code>' + esc(d.callbackUrl) + '</code></td><td>' + esc(deliveryOutcome(d)) + '</td></tr>').join('')
    : '<tr><td colspan="5" class="none">Nothing sent yet.</td></tr>';
}

async function refresh(withLeads) {
  const r = await fetch('/tryout/state?q=' + encodeURIComponent($('#search').value));
  const s = await r.json();
  stages = s.stages;
  if (withLeads) renderLeads(s.leads);
  renderSubscriptions(s.subscriptions);
  renderDeliveries(s.deliveries);
  document.body.dataset.loaded = 'true';
}

$('#leads').addEventListener('click', (e) => {
  const button = e.target.closest('button[data-action]');
  if (!button) return;
  const row = button.closest('tr');
  const body = { kind: button.dataset.action, leadId: row.dataset.leadId };
  if (body.kind === 'stage') body.stage = row.querySelector('select[data-field=stage]').value;
  void post(body);
});

$('#new-lead').addEventListener('submit', (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  void post({ kind: 'lead', ...Object.fromEntries(f.entries()) }).then((r) => { if (r.ok) e.target.reset(); });
});

let searchTimer;
$('#search').addEventListener('input', () => { clearTimeout(searchTimer); searchTimer = setTimeout(() => refresh(true), 250); });

void refresh(true);
setInterval(() => void refresh(false), 2000);
</script>
</body>
</html>
`;
