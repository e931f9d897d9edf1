/**
 * The console's Planning page's words (src/http/console/planning-routes.ts), English and French side
 * by side as in ./console.ts; kept apart so the page's many words do not crowd the console's table.
 */

import type { Translate } from './account.ts';
import { translatorOf } from './account.ts';
import type { Words } from './words.ts';

const PAIRS = {
  'plan.title': ['Planning', 'Planification'],
  'plan.date': ['Day', 'Jour'],
  'plan.show': ['Show', 'Afficher'],
  'plan.optimise': ['Optimise the day', 'Optimiser la journée'],
  'plan.bySortCode': ['Plan by sort code', 'Planifier par code de tri'],
  'plan.planHint': [
    'Optimising replans every round not started yet: pinned stops stay on their rounds; rounds already started stay whole.',
    'L’optimisation replanifie toutes les tournées non commencées : les arrêts épinglés restent sur leur tournée ; les tournées commencées restent entières.',
  ],
  'plan.summary': [
    '{rounds} round(s), {stops} stop(s), {distance} planned, {unplaced} unplaced.',
    '{rounds} tournée(s), {stops} arrêt(s), {distance} planifiés, {unplaced} non placé(s).',
  ],
  'plan.optimised': [
    'The day is optimised ({engine}): {rounds} round(s), {stops} stop(s), {unplaced} unplaced.',
    'La journée est optimisée ({engine}) : {rounds} tournée(s), {stops} arrêt(s), {unplaced} non placé(s).',
  ],
  'plan.planned': [
    'The day is planned by sort code: {rounds} round(s).',
    'La journée est planifiée par code de tri : {rounds} tournée(s).',
  ],
  'plan.noRounds': [
    'No round on this day yet: plan or optimise it.',
    'Aucune tournée ce jour-là : planifiez-la ou optimisez-la.',
  ],
  'plan.readOnly': [
    'Your role reads the plan; a dispatcher or an admin changes it.',
    'Votre rôle consulte le plan ; un répartiteur ou un admin le modifie.',
  ],
  'plan.round': ['Round {name}', 'Tournée {name}'],
  'plan.courier': ['Courier', 'Livreur'],
  'plan.vehicle': ['Vehicle', 'Véhicule'],
  'plan.none': ['— none —', '— aucun —'],
  'plan.stops': ['{count} stop(s)', '{count} arrêt(s)'],
  'plan.plannedRoad': ['planned {distance}, {time}', 'prévu {distance}, {time}'],
  'plan.version': ['version {version}', 'version {version}'],
  'plan.assign': ['Assign', 'Affecter'],
  'plan.assigned': [
    'Round {name}: courier and vehicle saved.',
    'Tournée {name} : livreur et véhicule enregistrés.',
  ],
  'plan.noStops': ['No stop on this round.', 'Aucun arrêt sur cette tournée.'],
  'plan.stopsOf': ['Stops of {name}, in order', 'Arrêts de {name}, dans l’ordre'],
  'plan.pickup': ['Pickup · {brand}', 'Enlèvement · {brand}'],
  'plan.window': ['window {start}–{end}', 'créneau {start}–{end}'],
  'plan.arrival': ['arrives {time}', 'arrivée {time}'],
  'plan.pinned': ['pinned', 'épinglé'],
  'plan.selected': ['With the selected stop', 'Avec l’arrêt sélectionné'],
  'plan.moveTo': ['Move to', 'Déplacer vers'],
  'plan.move': ['Move', 'Déplacer'],
  'plan.thisRound': ['This round (reorder)', 'Cette tournée (réordonner)'],
  'plan.position': ['at', 'en position'],
  'plan.positionHint': [
    'Position on the round; empty: at the end.',
    'Position dans la tournée ; vide : à la fin.',
  ],
  'plan.reordered': [
    'Stop {stop} is now stop {position} of round {name}.',
    'L’arrêt {stop} est maintenant l’arrêt {position} de la tournée {name}.',
  ],
  'plan.pin': ['Pin', 'Épingler'],
  'plan.unpin': ['Unpin', 'Désépingler'],
  'plan.moved': ['Stop {stop} moved to round {name}.', 'Arrêt {stop} déplacé vers la tournée {name}.'],
  'plan.pinnedNote': [
    'Stop {stop} is pinned to round {name}: optimising again keeps it there.',
    'L’arrêt {stop} est épinglé à la tournée {name} : une nouvelle optimisation l’y laisse.',
  ],
  'plan.unpinnedNote': ['Stop {stop} is no longer pinned.', 'L’arrêt {stop} n’est plus épinglé.'],
  'plan.chooseStop': ['Select a stop of the round first.', 'Sélectionnez d’abord un arrêt de la tournée.'],
  'plan.chooseRound': ['Choose the round to move the stop to.', 'Choisissez la tournée où déplacer l’arrêt.'],
  'plan.conflict': [
    'Someone else changed round {name} since this page was loaded: nothing was changed. The page now shows the round as it is; make your change again if it still holds.',
    'Quelqu’un d’autre a modifié la tournée {name} depuis le chargement de cette page : rien n’a été modifié. La page montre maintenant la tournée telle qu’elle est ; refaites votre modification si elle tient toujours.',
  ],
  'plan.conflictAny': [
    'A round changed since this page was loaded: nothing was changed. The page now shows the rounds as they are.',
    'Une tournée a changé depuis le chargement de cette page : rien n’a été modifié. La page montre maintenant les tournées telles qu’elles sont.',
  ],
  'plan.dragHint': [
    'Drag a stop onto another round or to another place on its own, or select it and choose the round (and the position) with “Move to” (keyboard: Tab to the stops, arrows to select, then the list and the button).',
    'Faites glisser un arrêt vers une autre tournée ou à une autre place de la sienne, ou sélectionnez-le et choisissez la tournée (et la position) avec « Déplacer vers » (clavier : Tab jusqu’aux arrêts, flèches pour choisir, puis la liste et le bouton).',
  ],
  'plan.unplaced': ['Unplaced', 'Non placés'],
  'plan.unplacedNone': [
    'Every stop due on this day is on a round.',
    'Tous les arrêts du jour sont sur une tournée.',
  ],
  'plan.col.stop': ['Stop', 'Arrêt'],
  'plan.col.where': ['Where', 'Où'],
  'plan.col.reason': ['Reason', 'Raison'],
  'plan.reason.no_location': [
    'No place to drive to: the address is not located',
    'Aucun lieu où se rendre : l’adresse n’est pas localisée',
  ],
  'plan.reason.no_vehicle': [
    'No courier with a shift and a vehicle on this day',
    'Aucun livreur avec un créneau et un véhicule ce jour-là',
  ],
  'plan.reason.capacity': [
    'Beyond the vehicles’ capacity (parcels or kg)',
    'Au-delà de la capacité des véhicules (colis ou kg)',
  ],
  'plan.reason.time_window': [
    'Its window cannot be met within the shifts',
    'Son créneau ne peut être tenu dans les services',
  ],
  'plan.reason.shift': ['Too far for the couriers’ shifts', 'Trop loin pour les services des livreurs'],
  'plan.reason.skills': ['No vehicle fit for it', 'Aucun véhicule adapté'],
  'plan.reason.not_planned': [
    'Not planned yet (new since the day was planned, or left out by the optimiser: optimise again to see why)',
    'Pas encore planifié (nouveau depuis la planification, ou laissé de côté par l’optimiseur : optimisez à nouveau pour voir pourquoi)',
  ],
  'plan.kind.delivery': ['Delivery', 'Livraison'],
  'plan.kind.pickup': ['Pickup', 'Enlèvement'],
} as const satisfies Record<string, readonly [string, string]>;

const WORDS: Record<string, Words> = Object.fromEntries(
  Object.entries(PAIRS).map(([key, [en, fr]]) => [key, { en, fr }]),
);

/** The Planning page's `t` in one language (an unknown key reads as itself). */
export const planningTranslate: (locale: string) => Translate = translatorOf(WORDS);
