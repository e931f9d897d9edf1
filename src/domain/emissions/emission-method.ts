import { methodId } from './emission-settings.ts';

/**
 * The default settings' method (emission-settings.ts): the identifier each figure computed with
 * them stores (`co2e_method`). A deployment with its own
 * settings gets its own (EmissionService.method).
 */
export const EMISSION_METHOD = methodId();
