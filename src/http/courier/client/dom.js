// Building the app's elements without innerHTML: text is always text (a recipient's name or an
// instruction cannot become markup), and nothing needs an inline script or style.

/** h('p.muted', { id: 'x', onclick: fn }, 'text', child…) */
export function h(tag, props, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** `{name}` placeholders filled, as the server's i18n does. */
export const fill = (text, values = {}) =>
  text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ''));
