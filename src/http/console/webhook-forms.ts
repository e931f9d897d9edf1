import { html } from '../shared/html.ts';
import { CONSOLE_PATH, type ConsoleContext, csrfField } from './views/layout.ts';

/**
 * A webhook endpoint's switch (disable a failing one, enable one again), from the brand's page or
 * the Exceptions page (`back`, where the redirect returns). A leaf module: both route files use it.
 */
export function endpointForm(
  ctx: ConsoleContext,
  brandId: string,
  endpointId: string,
  action: 'enable' | 'disable',
  back: 'brand' | 'exceptions',
) {
  return html`<form method="post" action="${CONSOLE_PATH}/brands/${brandId}/webhooks/${endpointId}/${action}" class="inline">${csrfField(ctx)}<input type="hidden" name="back" value="${back}"><button type="submit" class="small${action === 'disable' ? ' danger' : ''}">${ctx.t(`webhooks.${action}`)}</button></form>`;
}
