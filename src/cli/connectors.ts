import { PLATFORM_COMMANDS, RESYNC_HELP, STATUSES_HELP, UNPOLLED_PLATFORMS } from '../connectors/commands.ts';
import { type Connection, connectionJson, problemJson, type SyncProblem } from '../connectors/connection.ts';
import { invalidField } from '../errors.ts';
import { type CommandSpec, command, optionalFlag, requireArg, table } from './context.ts';

const CONNECTION_ID = { name: 'CONNECTION_ID', description: 'the shop link (con_…)' };

/** A date, or a date-time with its offset (a bare time would be read in the machine's zone). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function health(c: Connection): string {
  const status = c.statusReason ? `${c.status} (${c.statusReason})` : c.status;
  return c.status === 'active' && c.syncError ? `${status}, last sync failed` : status;
}

/** The polled platforms' sync health: last poll, what failed, what was repaired on the shop. */
function syncLines(c: Connection): string[] {
  if (UNPOLLED_PLATFORMS.includes(c.platform)) return [];
  return [
    `  last sync: ${c.lastSyncedAt?.toISOString() ?? 'never'}${c.syncCursor ? ` (orders changed up to ${c.syncCursor}Z)` : ''}`,
    ...(c.syncError ? [`  error:     ${c.syncError}`] : []),
    ...(c.syncState.webhookNotice
      ? [`  webhooks:  ${c.syncState.webhookNotice} (${c.syncState.webhooksReactivatedAt ?? ''})`]
      : []),
    ...(c.extraStatuses.length ? [`  statuses:  processing, ${c.extraStatuses.join(', ')}`] : []),
  ];
}

function describeProblems(problems: SyncProblem[]): string {
  if (problems.length === 0) return 'No sync problems.';
  return table([
    ['AT', 'CONNECTION', 'KIND', 'ORDER', 'MESSAGE'],
    ...problems.map((p) => [
      p.createdAt.toISOString(),
      p.connectionId,
      p.kind,
      p.externalName ?? p.externalId ?? '—',
      p.message.replace(/\s+/g, ' ').slice(0, 100),
    ]),
  ]);
}

/**
 * `dlv connectors …`: each platform's own commands (`connectors <platform> link`, from its folder),
 * then the operator's view of every brand's shop links.
 */
export const connectorCommands: CommandSpec[] = [
  ...PLATFORM_COMMANDS,
  command({
    path: 'connectors list',
    description: 'every shop link, its health and its problem count',
    flags: { brand: { value: 'ID', description: "only this brand's links" } },
    async run(ctx) {
      const brandId = optionalFlag(ctx, 'brand');
      if (brandId !== null) await ctx.deps.brands.get(brandId);
      const list = await ctx.deps.connections.list(brandId);
      const human = list.length
        ? table([
            ['CONNECTION', 'BRAND', 'PLATFORM', 'SHOP', 'STATUS', 'PROBLEMS', 'SINCE'],
            ...list.map(({ connection: c, problems }) => [
              c.id,
              c.brandId,
              c.platform,
              c.shop,
              health(c),
              String(problems),
              c.createdAt.toISOString(),
            ]),
          ])
        : 'No shop connections.';
      ctx.out(human, { connections: list.map((l) => connectionJson(l.connection, l.problems)) });
    },
  }),
  command({
    path: 'connectors show',
    description: "a shop link's settings, sync health and last problems",
    args: [CONNECTION_ID],
    async run(ctx) {
      const connection = await ctx.deps.connections.get(null, requireArg(ctx, 0, 'CONNECTION_ID'));
      const problems = await ctx.deps.connections.problems({
        brandId: null,
        connectionId: connection.id,
        limit: 20,
      });
      ctx.out(
        [
          `${connection.id}: ${connection.platform} ${connection.shop} for ${connection.brandId}`,
          `  status:    ${health(connection)}`,
          `  orders:    ${connection.orderFilter === 'all' ? 'every order with a shipping address' : 'orders shipped with our services'}`,
          `  notify:    ${connection.notifyCustomer ? 'the shop e-mails the tracking to its customer' : 'no customer e-mail'}`,
          `  linked:    ${connection.createdAt.toISOString()}`,
          ...syncLines(connection),
          '',
          describeProblems(problems),
        ].join('\n'),
        {
          ...connectionJson(connection),
          webhook_notice: connection.syncState.webhookNotice ?? null,
          problems: problems.map(problemJson),
        },
      );
    },
  }),
  command({
    path: 'connectors problems',
    description: 'sync problems: orders out of zone, unpriceable or unreadable, refused calls',
    flags: {
      brand: { value: 'ID', description: "only this brand's" },
      connection: { value: 'ID', description: "only this link's" },
      limit: { value: 'N', description: 'at most N' },
    },
    async run(ctx) {
      const brandId = optionalFlag(ctx, 'brand');
      if (brandId !== null) await ctx.deps.brands.get(brandId);
      const limitFlag = optionalFlag(ctx, 'limit');
      if (limitFlag !== null && !/^\d+$/.test(limitFlag))
        throw invalidField('limit', 'must be a whole number');
      const problems = await ctx.deps.connections.problems({
        brandId,
        connectionId: optionalFlag(ctx, 'connection') ?? undefined,
        limit: limitFlag === null ? undefined : Number(limitFlag),
      });
      ctx.out(describeProblems(problems), { problems: problems.map(problemJson) });
    },
  }),
  command({
    path: 'connectors settings',
    description: "change a shop link's settings",
    args: [CONNECTION_ID],
    flags: {
      orders: { value: 'WHICH', description: 'ours (shipped with our services) or all' },
      notify: { value: 'YES_NO', description: 'yes or no: the shop e-mails the tracking to its customer' },
      statuses: {
        value: 'LIST',
        description: `${STATUSES_HELP}, or none`,
      },
    },
    async run(ctx) {
      const notify = optionalFlag(ctx, 'notify');
      if (notify !== null && notify !== 'yes' && notify !== 'no')
        throw invalidField('notify', 'must be yes or no');
      const statuses = optionalFlag(ctx, 'statuses');
      const connection = await ctx.deps.connections.updateSettings(
        null,
        requireArg(ctx, 0, 'CONNECTION_ID'),
        {
          orderFilter: optionalFlag(ctx, 'orders') ?? undefined,
          notifyCustomer: notify === null ? undefined : notify === 'yes',
          extraStatuses:
            statuses === null
              ? undefined
              : statuses === 'none'
                ? []
                : statuses.split(',').map((x) => x.trim()),
        },
      );
      ctx.out(`Updated ${connection.id}.`, connectionJson(connection));
    },
  }),
  command({
    path: 'connectors resync',
    description: `re-read the shop's orders now (${RESYNC_HELP})`,
    args: [CONNECTION_ID],
    flags: {
      since: { value: 'ISO', description: 'from this date or date-time rather than the last mark' },
    },
    async run(ctx) {
      const sinceFlag = optionalFlag(ctx, 'since');
      if (sinceFlag !== null && !ISO_DATE_TIME.test(sinceFlag))
        throw invalidField('since', 'must be an ISO 8601 date-time (2026-11-23T08:00:00Z)');
      const { connection, since, outcome, figures } = await ctx.deps.resync.resync(
        null,
        requireArg(ctx, 0, 'CONNECTION_ID'),
        sinceFlag === null ? undefined : new Date(sinceFlag),
      );
      ctx.out(
        `Resynced ${connection.shop} (${connection.id}) from ${since?.toISOString() ?? 'its last mark'}: ${outcome}.`,
        {
          ...connectionJson(connection),
          since: since?.toISOString() ?? null,
          outcome,
          ...figures,
        },
      );
    },
  }),
  command({
    path: 'connectors disconnect',
    description: 'remove our webhooks and carrier service from the shop and erase its token',
    args: [CONNECTION_ID],
    async run(ctx) {
      const connection = await ctx.deps.connections.disconnect(
        null,
        requireArg(ctx, 0, 'CONNECTION_ID'),
        'disconnected by the operator',
      );
      const unreachable =
        connection.remote === 'failed'
          ? "\nWhat we registered on the shop (webhooks, carrier service) could not be removed: the shop was out of reach, refused the token, or the connector is off. Uninstalling the app from the shop's admin removes it."
          : '';
      ctx.out(
        `Disconnected ${connection.shop} (${connection.id}); its access token is erased.${unreachable}`,
        { ...connectionJson(connection), remote_cleanup: connection.remote },
      );
    },
  }),
];
