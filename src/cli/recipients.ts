import { parsePhone } from '../domain/orders/order-input.ts';
import type { ErasureReport } from '../domain/privacy/recipient-data-service.ts';
import { MESSAGE_LOG_SETTING } from '../domain/privacy/retention-periods.ts';
import { type CommandSpec, command, optionalFlag, requireArg, table, UsageError } from './context.ts';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What an erasure removed besides the orders' fields, in words (only what there was). */
function erasedParts(report: ErasureReport): string[] {
  return [
    report.files > 0 ? plural(report.files, 'proof file') : '',
    report.attempts > 0 ? plural(report.attempts, 'delivery attempt') : '',
    report.notifications > 0 ? plural(report.notifications, 'notification') : '',
    report.codes > 0 ? plural(report.codes, 'self-service code') : '',
    report.choices > 0 ? plural(report.choices, "recipient's choice") : '',
    report.problems > 0 ? plural(report.problems, 'shop problem') : '',
    report.inboxPayloads > 0 ? plural(report.inboxPayloads, "shop's webhook payload") : '',
    report.idempotencyKeys > 0 ? plural(report.idempotencyKeys, 'stored Idempotency-Key answer') : '',
  ].filter(Boolean);
}

export const recipientCommands: CommandSpec[] = [
  command({
    path: 'recipients erase',
    writesNoLinks: true,
    description:
      "erase a recipient's personal data on their request (GDPR art. 17): every finished order naming the e-mail address or phone number, its notifications, proofs and self-service rows; refused while one is on its way",
    flags: {
      email: {
        value: 'ADDRESS',
        description: "the e-mail address (the customer's or the delivery one, any case)",
      },
      phone: {
        value: 'NUMBER',
        description: 'the delivery phone number (06 12 34 56 78, +33 6 12 34 56 78…)',
      },
    },
    async run(ctx) {
      const email = optionalFlag(ctx, 'email');
      const phone = optionalFlag(ctx, 'phone');
      if ((email === null) === (phone === null))
        throw new UsageError('give --email or --phone (one of them)');
      if (email !== null && (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254))
        throw new UsageError('--email must be an e-mail address');
      if (phone !== null) {
        try {
          parsePhone(phone);
        } catch {
          throw new UsageError(
            '--phone must be a valid phone number, e.g. "06 12 34 56 78" or "+33 6 12 34 56 78"',
          );
        }
      }
      const report = await ctx.deps.recipientData.erase({
        email,
        phone,
        by: ctx.by,
      });
      const what = email !== null ? 'e-mail address' : 'phone number';
      const days = ctx.deps.config.retention.messageLogDays;
      const human =
        report.orders.length === 0
          ? `No order holds this ${what}: nothing to erase.`
          : [
              `Erased the recipient's data of ${plural(report.orders.length, 'order')}: ${report.orders.join(', ')}.`,
              ...(erasedParts(report).length > 0
                ? [`  also deleted: ${erasedParts(report).join(', ')}`]
                : []),
              `  webhook events about them (the order's JSON sent to the brand) are deleted ${days} days after they were written (${MESSAGE_LOG_SETTING})`,
              `  an opt-out of this ${what} is kept (a digest, not the ${what}); to stop future messages: dlv recipients opt-out --${email !== null ? 'email' : 'phone'} …`,
            ].join('\n');
      ctx.out(human, {
        orders: report.orders,
        files: report.files,
        attempts: report.attempts,
        notifications: report.notifications,
        codes: report.codes,
        choices: report.choices,
        problems: report.problems,
        inbox_payloads: report.inboxPayloads,
        idempotency_keys: report.idempotencyKeys,
        erased_at: report.at.toISOString(),
      });
    },
  }),
  command({
    path: 'recipients opt-out',
    writesNoLinks: true,
    description:
      'stop every notification to an e-mail address or a phone number, whatever the brand (kept as a digest; never undone by the service)',
    flags: {
      email: { value: 'ADDRESS', description: 'the e-mail address' },
      phone: { value: 'NUMBER', description: 'the phone number (06 12 34 56 78, +33 6 12 34 56 78…)' },
    },
    async run(ctx) {
      const email = optionalFlag(ctx, 'email');
      const phone = optionalFlag(ctx, 'phone');
      if ((email === null) === (phone === null))
        throw new UsageError('give --email or --phone (one of them)');
      if (email !== null && (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254))
        throw new UsageError('--email must be an e-mail address');
      if (phone !== null) {
        try {
          parsePhone(phone);
        } catch {
          throw new UsageError(
            '--phone must be a valid phone number, e.g. "06 12 34 56 78" or "+33 6 12 34 56 78"',
          );
        }
      }
      const { channel, address } = await ctx.deps.recipientData.optOut({ email, phone, by: ctx.by });
      if (channel === 'email')
        ctx.out(`No more e-mails to ${email}, from any brand.`, { channel: 'email', opted_out: true });
      else ctx.out(`No more SMS to ${address}, from any brand.`, { channel: 'sms', opted_out: true });
    },
  }),
  command({
    path: 'recipients notifications',
    writesNoLinks: true,
    description: "the messages decided for an order's recipient: step, channel, status, why not sent",
    args: [{ name: 'TRACKING_REF', description: 'the order (DLV-…)' }],
    async run(ctx) {
      const order = await ctx.deps.orders.getAnyBrand(
        requireArg(ctx, 0, 'TRACKING_REF'),
        ctx.by,
        'notifications',
      );
      const messages = await ctx.deps.recipientNotifications.ofOrder(order.id);
      const human =
        messages.length === 0
          ? `No message decided for ${order.trackingRef}.`
          : table([
              ['AT', 'STEP', 'CHANNEL', 'STATUS', 'DETAIL'],
              ...messages.map((m) => [
                m.updatedAt.toISOString(),
                m.step,
                m.channel,
                m.status,
                m.detail ?? '',
              ]),
            ]);
      ctx.out(human, {
        tracking_ref: order.trackingRef,
        notifications: messages.map((m) => ({
          id: m.id,
          step: m.step,
          channel: m.channel,
          status: m.status,
          detail: m.detail,
          created_at: m.createdAt.toISOString(),
          updated_at: m.updatedAt.toISOString(),
        })),
      });
    },
  }),
];
