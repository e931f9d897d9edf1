import { describe, expect, it } from 'vitest';
import { codeSms } from './code-message.ts';
import type { NotificationStep } from './ports.ts';
import {
  DEFAULT_COLOUR,
  inkOn,
  type MessageFacts,
  recipientEmail,
  recipientSms,
} from './recipient-messages.ts';
import { measureSms, SMS_SINGLE_GSM7 } from './sms-text.ts';

const facts = (step: NotificationStep, changes: Partial<MessageFacts> = {}): MessageFacts => ({
  step,
  locale: 'fr',
  brandName: 'Maison <Éole> & Fils',
  colour: null,
  hasLogo: false,
  carrierName: 'Livraison DLV',
  trackingRef: 'DLV-7RHSCC7RYX',
  trackingUrl: 'https://dlv.example.com/track/AbCdEfGhIjKlMnOpQrStUvWx',
  changeUrl: 'https://dlv.example.com/track/AbCdEfGhIjKlMnOpQrStUvWx/change',
  unsubscribeUrl: `https://dlv.example.com/unsubscribe/${'A'.repeat(66)}`,
  promisedDate: '2026-11-25',
  window: { from: new Date('2026-11-25T08:45:00Z'), to: new Date('2026-11-25T10:45:00Z') },
  at: new Date('2026-11-25T09:52:00Z'),
  ...changes,
});

describe('recipient messages', () => {
  it('escape the brand’s name in the HTML, keep it as written in the text', () => {
    const mail = recipientEmail(facts('confirmed'));
    expect(mail.html).toContain('Maison &lt;Éole&gt; &amp; Fils');
    expect(mail.html).not.toContain('<Éole>');
    expect(mail.subject).toBe('Maison <Éole> & Fils : votre livraison est confirmée');
    expect(mail.text).toContain('sera livré le mercredi 25 novembre');
  });

  it('give the window in Paris time, as each language writes it', () => {
    expect(recipientEmail(facts('out_for_delivery')).text).toContain('entre 09h45 et 11h45');
    expect(recipientEmail(facts('out_for_delivery', { locale: 'en' })).text).toContain(
      'between 09:45 and 11:45',
    );
    expect(recipientEmail(facts('out_for_delivery', { window: null })).text).toContain('arrive aujourd’hui');
  });

  it('use the brand’s colour, the service’s without one, and readable ink on it', () => {
    expect(recipientEmail(facts('delivered')).html).toContain(`background:${DEFAULT_COLOUR}`);
    expect(recipientEmail(facts('delivered', { colour: '#facc15' })).html).toContain('color:#1c2430');
    expect(inkOn('#2f5bea')).toBe('#ffffff');
    expect(inkOn('#facc15')).toBe('#1c2430');
    expect(inkOn('#ffffff')).toBe('#1c2430');
    expect(inkOn('#000000')).toBe('#ffffff');
  });

  it('show the logo inline only when there is one', () => {
    expect(recipientEmail(facts('delivered', { hasLogo: true })).html).toContain('src="cid:logo"');
    expect(recipientEmail(facts('delivered')).html).not.toContain('cid:logo');
  });

  it('SMS of every step fit one GSM-7 message for a usual brand name, its link last', () => {
    for (const step of ['confirmed', 'out_for_delivery', 'delivered', 'failed_attempt'] as const) {
      for (const locale of ['fr', 'en'] as const) {
        const text = recipientSms(facts(step, { locale, brandName: 'Maison Éole' }));
        expect(measureSms(text), `${step} ${locale}: ${text}`).toMatchObject({ encoding: 'gsm7', parts: 1 });
        expect(text.length).toBeLessThanOrEqual(SMS_SINGLE_GSM7);
        expect(text.startsWith(locale === 'fr' ? 'Maison Éole : ' : 'Maison Éole: ')).toBe(true);
        expect(text.endsWith(step === 'failed_attempt' ? '/change' : 'UvWx')).toBe(true);
      }
    }
  });

  // #36 item 10: a French SMS read "Maison Eole: votre colis … Suivi : https://…", two styles in one.
  it('space every colon of an SMS one way per language: " : " in French, ": " in English', () => {
    const texts = (locale: 'fr' | 'en') => [
      ...(['confirmed', 'out_for_delivery', 'delivered', 'failed_attempt'] as const).flatMap((step) => [
        recipientSms(facts(step, { locale, brandName: 'Maison Éole' })),
        recipientSms(facts(step, { locale, brandName: 'Maison Éole', window: null })),
      ]),
      codeSms(locale, 'Maison Éole', '048213'),
    ];
    const colons = (text: string) => [...text.replace(/https:\/\/\S+/g, 'URL').matchAll(/(.?):(.?)/g)];
    for (const text of texts('fr')) {
      expect(colons(text).length, text).toBeGreaterThan(0);
      for (const [, before, after] of colons(text)) expect(`${before}:${after}`, text).toBe(' : ');
    }
    for (const text of texts('en')) {
      expect(colons(text).length, text).toBeGreaterThan(0);
      // A time (10:45) is written with a colon too, without spaces.
      for (const [, before, after] of colons(text))
        expect(before === ' ' || (after !== ' ' && !/\d/.test(after!)), text).toBe(false);
    }
  });
});
