// Reading labels with the phone's camera: the browser's BarcodeDetector where it has one (Android's
// Chrome), else ZXing compiled to WebAssembly, loaded from this server only when first needed
// (zxing-wasm would fetch its .wasm from a CDN unless told where it is: it is told here).

const FORMATS_NATIVE = ['code_128', 'data_matrix'];
const FORMATS_ZXING = ['Code128', 'DataMatrix'];
/** How close two agreeing reads of a text must be for it to be taken. */
const CONFIRM_WITHIN_MS = 1000;
const FRAME_INTERVAL_MS = 200;

let zxingReady = null;

function loadZxing(assets) {
  if (!zxingReady) {
    zxingReady = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = `${assets}/zxing-reader.js`;
      script.onload = () => resolve();
      script.onerror = () => reject(new Error('zxing-reader.js did not load'));
      document.head.append(script);
    }).then(() =>
      globalThis.ZXingWASM.prepareZXingModule({
        overrides: {
          locateFile: (file, prefix) =>
            file.endsWith('.wasm') ? `${assets}/zxing_reader.wasm` : prefix + file,
        },
        fireImmediately: true,
      }),
    );
    zxingReady.catch(() => {
      zxingReady = null;
    });
  }
  return zxingReady;
}

/** A function reading the codes (their texts) in a video frame, the best the browser offers. */
async function makeDecoder(assets) {
  if ('BarcodeDetector' in globalThis) {
    try {
      const supported = await globalThis.BarcodeDetector.getSupportedFormats();
      const formats = FORMATS_NATIVE.filter((f) => supported.includes(f));
      if (formats.length > 0) {
        const detector = new globalThis.BarcodeDetector({ formats });
        return {
          kind: 'native',
          decode: async (video) => (await detector.detect(video)).map((b) => b.rawValue),
        };
      }
    } catch {
      // Falls through to ZXing.
    }
  }
  await loadZxing(assets);
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return {
    kind: 'zxing',
    decode: async (video) => {
      const width = video.videoWidth;
      const height = video.videoHeight;
      if (!width || !height) return [];
      canvas.width = width;
      canvas.height = height;
      context.drawImage(video, 0, 0, width, height);
      const found = await globalThis.ZXingWASM.readBarcodes(context.getImageData(0, 0, width, height), {
        formats: FORMATS_ZXING,
        tryHarder: true,
        maxNumberOfSymbols: 2,
      });
      return found.filter((b) => b.isValid).map((b) => b.text);
    },
  };
}

/** The rear camera's stream (the door screen takes its photo from the same kind of stream). */
export function openCamera() {
  return navigator.mediaDevices.getUserMedia({
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
    audio: false,
  });
}

/**
 * Starts reading codes from `video` and calls `onCode(text)` for each code that comes into view
 * (once per `keyOf(text)` while it stays in view). Returns `stop()`.
 */
export async function startScanner(video, { assets, onCode, onError, keyOf = (text) => text }) {
  let stream;
  try {
    stream = await openCamera();
  } catch (err) {
    onError('camera', err);
    return () => {};
  }
  video.srcObject = stream;
  video.setAttribute('playsinline', '');
  video.muted = true;
  await video.play().catch(() => {});
  let decoder;
  try {
    decoder = await makeDecoder(assets);
  } catch (err) {
    onError('decoder', err);
  }
  video.dataset.decoder = decoder?.kind ?? 'none';
  let stopped = false;
  // When each code was last in view: a label held in view counts once, shown again after a pause, twice.
  const lastSeen = new Map();
  // A text is taken once two frames within a second read it the same: a blurred frame can pass a
  // code's own check with a character misread (seen: "DLV-D1(VPA5CM4" for "DLV-D16VPA5CM4"), and
  // the courier would see "not a label" while holding a good one.
  const sightings = new Map();
  const confirmed = (text, now) => {
    const seen = sightings.get(text);
    if (!seen || now - seen > CONFIRM_WITHIN_MS) {
      sightings.set(text, now);
      if (sightings.size > 50) sightings.clear();
      return false;
    }
    sightings.delete(text);
    return true;
  };
  const tick = async () => {
    if (stopped) return;
    try {
      if (decoder && video.readyState >= 2) {
        for (const text of await decoder.decode(video)) {
          const now = Date.now();
          if (!lastSeen.has(keyOf(text)) && !confirmed(text, now)) continue;
          // A label's two codes (Code 128 and DataMatrix) name one parcel: `keyOf` says which.
          const key = keyOf(text);
          const before = lastSeen.get(key) ?? 0;
          lastSeen.set(key, now);
          if (now - before > 3000) onCode(text);
        }
      }
    } catch {
      // A frame that cannot be read is the next frame's chance.
    }
    if (!stopped) setTimeout(tick, FRAME_INTERVAL_MS);
  };
  tick();
  return () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
}
