/**
 * The method each figure was computed with, stored with it (`co2e_method`): a new factor table or
 * allocation rule gets a new identifier, so a statement says which one gave each figure and
 * `dlv emissions recompute` is what moves old figures to the new one.
 */
export const EMISSION_METHOD = 'ademe-iso14083-parcel-2023';

/**
 * The method as the decree wants it told to the client (D1431-3: the method, its data level and
 * its sources), on the monthly statement. French first: the statement is a French legal document.
 */
export const EMISSION_METHOD_TEXT = [
  "Information GES des prestations de transport (Code des transports, art. L1431-3 et D1431-1 à D1431-23) : quantité de gaz à effet de serre émise, en grammes d'équivalent CO₂ (CO₂e), du puits à la roue (amont de l'énergie inclus).",
  "Méthode : distance de chaque tournée (la distance propre de la tournée si elle est connue, sinon une valeur par défaut par arrêt selon la zone et le service) × facteur d'émission du type de véhicule (Base Carbone ADEME ; véhicules électriques : mix électrique français), réparti entre les colis de la tournée au prorata du nombre de colis (ISO 14083). Avant toute tournée : distance par défaut d'un arrêt, véhicule utilitaire gazole (niveau 1).",
  'Niveaux de données : niveau 1, valeurs par défaut ; niveau 2, distance ou véhicule propres à la tournée ; niveau 3, distance et véhicule propres à la tournée ; niveau 4, valeurs mesurées (non produit).',
  `Identifiant de méthode : ${EMISSION_METHOD}.`,
].join('\n');
