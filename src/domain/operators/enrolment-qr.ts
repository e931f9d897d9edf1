// Loaded by the first enrolment, not by every process wiring the services.
const bwip = async () => (await import('bwip-js/node')).default;

/**
 * The enrolment's QR code as an SVG document, drawn here by bwip-js (the labels' barcode library):
 * the secret it carries never leaves for a third-party QR service. Error correction M (BWIPP's
 * default), a quiet zone of four modules as ISO/IEC 18004 asks (bwip-js pads in points: a
 * module is two), black on white so every phone camera reads it.
 */
export async function qrCodeSvg(text: string): Promise<string> {
  return (await bwip()).toSVG({
    bcid: 'qrcode',
    text,
    scale: 4,
    paddingwidth: 8,
    paddingheight: 8,
    backgroundcolor: 'FFFFFF',
  });
}
