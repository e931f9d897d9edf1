// The door: the parcel delivered (a photo from the camera, a signature drawn on the screen, the name
// of who took it, the position rounded to about 100 m) or a failed attempt with its reason.

import { h } from './dom.js';
import { openCamera } from './scanner.js';

const REASONS = ['absent', 'refused', 'address_not_found', 'no_access', 'damaged'];

const toBlob = (canvas, type, quality) => new Promise((resolve) => canvas.toBlob(resolve, type, quality));

/** Three decimals of a degree: about 110 m north–south, 75 m east–west at Paris. */
const rounded = (value) => Math.round(value * 1000) / 1000;

function position() {
  if (!('geolocation' in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: rounded(p.coords.latitude), longitude: rounded(p.coords.longitude) }),
      () => resolve(null),
      { enableHighAccuracy: false, timeout: 5000, maximumAge: 60_000 },
    );
  });
}

/** A canvas to sign on with a finger, a pen or a mouse (pointer events). */
function signaturePad(t) {
  const canvas = h('canvas.signature', {
    id: 'signature',
    width: 600,
    height: 240,
    'aria-label': t.signature,
  });
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.lineWidth = 4;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = '#111';
  let drawing = false;
  let signed = false;
  const at = (event) => {
    const box = canvas.getBoundingClientRect();
    return [
      ((event.clientX - box.left) * canvas.width) / box.width,
      ((event.clientY - box.top) * canvas.height) / box.height,
    ];
  };
  canvas.addEventListener('pointerdown', (event) => {
    drawing = true;
    canvas.setPointerCapture(event.pointerId);
    context.beginPath();
    context.moveTo(...at(event));
    event.preventDefault();
  });
  canvas.addEventListener('pointermove', (event) => {
    if (!drawing) return;
    context.lineTo(...at(event));
    context.stroke();
    signed = true;
    event.preventDefault();
  });
  const end = () => {
    drawing = false;
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);
  return {
    canvas,
    clear() {
      context.fillStyle = '#fff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      signed = false;
    },
    blob: () => (signed ? toBlob(canvas, 'image/png') : Promise.resolve(null)),
  };
}

/**
 * Renders the door screen for `ref` into `root`. `onDelivered({ received_by, location }, files)` and
 * `onFailed(reason)` queue what the courier confirmed; `onClose()` goes back.
 */
export function renderDoor(root, { ref, t, onDelivered, onFailed, onClose }) {
  let stream = null;
  let photo = null;
  let photoUrl = null;
  const video = h('video.camera', { id: 'door-video', playsinline: true, muted: true, autoplay: true });
  const preview = h('img.photo', { id: 'photo-preview', alt: t.photo, hidden: true });
  const pad = signaturePad(t);
  const receivedBy = h('input', { id: 'received-by', type: 'text', maxLength: 200, autocomplete: 'off' });
  const problem = h('p.error', { id: 'door-problem', role: 'alert', hidden: true });
  const where = h('span', { id: 'door-position' }, '…');
  let located = null;
  position().then((p) => {
    located = p;
    where.textContent = p ? `${p.latitude}, ${p.longitude}` : t.positionNone;
  });

  const stopCamera = () => {
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = null;
    video.srcObject = null;
  };
  const startCamera = async () => {
    try {
      stream = await openCamera();
      video.srcObject = stream;
      await video.play().catch(() => {});
    } catch {
      problem.textContent = t.cameraDenied;
      problem.hidden = false;
    }
  };
  const close = () => {
    stopCamera();
    if (photoUrl) URL.revokeObjectURL(photoUrl);
    onClose();
  };

  const photoButton = h('button.secondary', { type: 'button', id: 'take-photo' }, t.takePhoto);
  photoButton.addEventListener('click', async () => {
    if (!stream) {
      // Retaking: the live view again; the courier frames the shot, then taps again.
      video.hidden = false;
      await startCamera();
      return;
    }
    if (!video.videoWidth) {
      await new Promise((resolve) => video.addEventListener('loadeddata', resolve, { once: true }));
    }
    const canvas = document.createElement('canvas');
    const scale = Math.min(1, 1600 / Math.max(video.videoWidth, video.videoHeight));
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
    photo = await toBlob(canvas, 'image/jpeg', 0.85);
    if (photoUrl) URL.revokeObjectURL(photoUrl);
    photoUrl = URL.createObjectURL(photo);
    preview.src = photoUrl;
    preview.hidden = false;
    photoButton.textContent = t.retakePhoto;
    // The photo replaces the live view (and the camera rests until a retake).
    stopCamera();
    video.hidden = true;
  });

  const deliveredForm = h(
    'form.door-form',
    { id: 'delivered-form' },
    h('h3', null, t.photo),
    video,
    preview,
    photoButton,
    h('h3', null, t.signature),
    pad.canvas,
    h('button.link', { type: 'button', id: 'clear-signature', onclick: () => pad.clear() }, t.clearSignature),
    h('label', { for: 'received-by' }, t.receivedBy),
    receivedBy,
    h('p.muted', null, `${t.position} `, where),
    h('button.primary', { type: 'submit', id: 'confirm-delivered' }, t.confirmDelivered),
  );
  deliveredForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const signature = await pad.blob();
    const name = receivedBy.value.trim();
    if (!photo && !signature && !name) {
      problem.textContent = t.proofNeeded;
      problem.hidden = false;
      return;
    }
    stopCamera();
    await onDelivered(
      { received_by: name || undefined, location: located ?? undefined },
      { photo, signature },
    );
    close();
  });

  const reasons = h(
    'fieldset.reasons',
    null,
    h('legend', null, t.reasonLabel),
    REASONS.map((reason) =>
      h(
        'label.choice',
        null,
        h('input', { type: 'radio', name: 'reason', value: reason, required: true }),
        t[`reason.${reason}`],
      ),
    ),
  );
  const failedForm = h(
    'form.door-form',
    { id: 'failed-form', hidden: true },
    reasons,
    h('button.danger', { type: 'submit', id: 'confirm-failed' }, t.confirmFailed),
  );
  failedForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const reason = new FormData(failedForm).get('reason');
    if (!reason) return;
    stopCamera();
    await onFailed(String(reason));
    close();
  });

  const tabs = h(
    'div.segmented',
    { role: 'tablist' },
    h('button', { type: 'button', id: 'door-delivered', 'aria-pressed': 'true' }, t.delivered),
    h('button', { type: 'button', id: 'door-failed', 'aria-pressed': 'false' }, t.failed),
  );
  const [deliveredTab, failedTab] = tabs.children;
  deliveredTab.addEventListener('click', () => {
    deliveredForm.hidden = false;
    failedForm.hidden = true;
    deliveredTab.setAttribute('aria-pressed', 'true');
    failedTab.setAttribute('aria-pressed', 'false');
  });
  failedTab.addEventListener('click', () => {
    stopCamera();
    deliveredForm.hidden = true;
    failedForm.hidden = false;
    deliveredTab.setAttribute('aria-pressed', 'false');
    failedTab.setAttribute('aria-pressed', 'true');
  });

  root.replaceChildren(
    h(
      'section.door',
      { id: 'door', dataset: { ref } },
      h('h2', null, t.doorTitle.replace('{ref}', ref)),
      tabs,
      problem,
      deliveredForm,
      failedForm,
      h('button.link', { type: 'button', id: 'door-cancel', onclick: close }, t.cancel),
    ),
  );
  startCamera();
}
