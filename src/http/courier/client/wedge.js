// Keyboard-wedge scanners (a Bluetooth scanner paired as a keyboard) type the code and Enter, much
// faster than a person. With the code field focused, Enter submits it like a typed reference; with
// nothing focused, a burst of keys ending in Enter is taken as a scan, so the courier need not tap
// the field first. People's typing (slower) outside a field is ignored.

const MAX_GAP_MS = 60;
const MIN_LENGTH = 6;

export function listenForWedge(onCode) {
  let buffer = '';
  let last = 0;
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
    if (target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey) return;
    const now = performance.now();
    if (now - last > MAX_GAP_MS) buffer = '';
    last = now;
    if (event.key === 'Enter') {
      if (buffer.length >= MIN_LENGTH) {
        event.preventDefault();
        onCode(buffer);
      }
      buffer = '';
      return;
    }
    if (event.key.length === 1) buffer += event.key;
  });
}
