// The runtime profile's commands, whatever they are: one card per engine, each command with
// its title, a copy button and its text. Hooks: data-testid "cmd-<id>", "cmd-<id>-heading",
// "copy-<id>".
import { byId, copyToClipboard, put, putPart } from '../dom.js';

function createCommand(command) {
  const head = document.createElement('div');
  head.className = 'command-head';
  const title = document.createElement('h3');
  title.id = `cmd-${command.id}-heading`;
  title.dataset.testid = `cmd-${command.id}-heading`;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'copy';
  copy.dataset.copy = `cmd-${command.id}`;
  copy.dataset.testid = `copy-${command.id}`;
  copy.dataset.i18n = 'cmd.copy';
  head.append(title, copy);
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  code.id = `cmd-${command.id}`;
  code.dataset.testid = `cmd-${command.id}`;
  code.dataset.language = command.language;
  pre.append(code);
  return [head, pre];
}

/** The cards: rebuilt only when the list of commands changes. */
function syncCards(container, commands) {
  const key = commands.map((c) => `${c.engine}/${c.id}`).join(' ');
  if (container.dataset.key === key) return false;
  container.dataset.key = key;
  const cards = new Map();
  for (const command of commands) {
    if (!cards.has(command.engine)) {
      const card = document.createElement('div');
      card.className = 'card command';
      card.dataset.engine = command.engine;
      cards.set(command.engine, card);
    }
    cards.get(command.engine).append(...createCommand(command));
  }
  container.replaceChildren(...cards.values());
  return true;
}

export function renderCommands(root, response, { t }) {
  const container = byId(root, 'commands');
  if (!container) return;
  // The reference page's heading names vLLM and Ollama, its commands; an engine's names the engine.
  const runtime = response.simulator.runtime;
  const model = response.model.name;
  putPart(root, 'cmd-heading', runtime === 'reference' ? t('cmd.heading', { model })
    : t('cmd.heading_engine', { engine: t(`runtime.${runtime}`), model }));
  if (syncCards(container, response.commands)) {
    for (const button of container.querySelectorAll('button.copy')) button.textContent = t('cmd.copy');
  }
  const sim = response.simulator;
  const devices = sim.device_count > 1
    ? t('unit.times', { count: sim.device_count, device: sim.device_name }) : sim.device_name;
  for (const command of response.commands) {
    putPart(root, `cmd-${command.id}-heading`, t(command.title, { device: devices }));
    putPart(root, `cmd-${command.id}`, command.text);
  }
}

/** Copies the text of the element a copy button names, and says so on the button. */
export async function copyFrom(button, t) {
  const root = button.getRootNode();
  const source = byId(root, button.dataset.copy);
  await copyToClipboard(button, source?.textContent ?? '', t, () => {
    // The command shows already: select it for Ctrl+C.
    const range = document.createRange();
    range.selectNodeContents(source);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
  });
}
