import { describe, expect, it } from 'vitest';
import { codeEmail, codeSms } from './code-message.ts';

// GSM 03.38's basic table: a text of these only is sent as 7-bit, 160 characters a message.
const GSM7_BASIC = /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;

describe('the code’s messages', () => {
  it('SMS: the brand first, the code, GSM-7 only and one message even with a long brand name', () => {
    for (const locale of ['fr', 'en'] as const) {
      const text = codeSms(locale, 'Maison Lumière de Paris', '048213');
      expect(text.startsWith('Maison Lumière de Paris')).toBe(true);
      expect(text).toContain('048213');
      expect(text, locale).toMatch(GSM7_BASIC);
      expect(codeSms(locale, 'B'.repeat(60), '048213').length).toBeLessThanOrEqual(160);
    }
  });

  it('e-mail: no link, no unsubscribe, the brand escaped in the HTML', () => {
    const mail = codeEmail('fr', 'camille@example.org', 'Atelier <Lune> & Co', '048213');
    expect(mail.unsubscribeUrl).toBeNull();
    expect(mail.subject).toBe('Votre code pour la livraison Atelier <Lune> & Co');
    expect(mail.text).toContain('048213');
    expect(mail.html).toContain('048213');
    expect(mail.html).toContain('Atelier &lt;Lune&gt; &amp; Co');
    expect(mail.html).not.toContain('<Lune>');
    expect(`${mail.text}${mail.html}`).not.toMatch(/https?:|href=/);
  });
});
