import { normaliseEmail, parsePhone } from '../domain/orders/order-input.ts';
import { type CommandSpec, command, optionalFlag, requireArg, table, UsageError } from './context.ts';

export const recipientCommands: CommandSpec[] = [
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
      if (email !== null) {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
          throw new UsageError('--email must be an e-mail address');
        await ctx.deps.recipientOptOuts.optOut('email', normaliseEmail(email)!, 'operator');
        ctx.out(`No more e-mails to ${email}, from any brand.`, { channel: 'email', opted_out: true });
        return;
      }
      let number: string | null;
      try {
        number = parsePhone(phone);
      } catch {
        throw new UsageError(
          '--phone must be a valid phone number, e.g. "06 12 34 56 78" or "+33 6 12 34 56 78"',
        );
      }
      await ctx.deps.recipientOptOuts.optOut('sms', number!, 'operator');
      ctx.out(`No more SMS to ${number}, from any brand.`, { channel: 'sms', opted_out: true });
    },
  }),
  command({
    path: 'recipients notifications',
    writesNoLinks: true,
    description: "the messages decided for an order's recipient: step, channel, status, why not sent",
    args: [{ name: 'TRACKING_REF', description: 'the order (DLV-…)' }],
    async run(ctx) {
      const order = await ctx.deps.orders.getAnyBrand(requireArg(ctx, 0, 'TRACKING_REF'));
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
