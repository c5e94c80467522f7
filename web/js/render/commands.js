// The vLLM command and the Ollama Modelfile with its server environment.
import { put } from '../dom.js';

const $ = (id) => document.getElementById(id);

export function renderCommands(response, { t }) {
  put($('cmd-heading'), t('cmd.heading', { model: response.model.name }));
  const sim = response.simulator;
  const devices = sim.device_count > 1
    ? t('unit.times', { count: sim.device_count, device: sim.device_name }) : sim.device_name;
  put($('cmd-vllm-heading'), t('cmd.vllm', { device: devices }));
  put($('cmd-vllm'), response.commands.vllm);
  put($('cmd-ollama'), response.commands.ollama_modelfile);
  put($('cmd-ollama-env'), response.commands.ollama_env);
}

/** Copies the text of the element a copy button names, and says so on the button. */
export async function copyFrom(button, t) {
  const text = document.getElementById(button.dataset.copy)?.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (e.g. an insecure context): select the text for Ctrl+C instead.
    const range = document.createRange();
    range.selectNodeContents(document.getElementById(button.dataset.copy));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    return;
  }
  button.textContent = t('cmd.copied');
  button.dataset.copied = 'true';
  setTimeout(() => {
    button.textContent = t('cmd.copy');
    delete button.dataset.copied;
  }, 1500);
}
