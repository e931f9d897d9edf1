/**
 * The method each figure was computed with, stored with it (`co2e_method`): a new factor table or
 * allocation rule gets a new identifier, so a statement says which one gave each figure and
 * `dlv emissions recompute` is what moves old figures to the new one.
 */
export const EMISSION_METHOD = 'info-ges-2017-parcel-v2';

/**
 * The method as the decree wants it told to the client (D1431-3: the method, its data level and
 * its sources), on the monthly statement. French first: the statement is a French legal document.
 */
export const EMISSION_METHOD_TEXT = [
  "Information GES des prestations de transport (Code des transports, art. L1431-3 et D1431-1 à D1431-23) : quantité de gaz à effet de serre émise, en équivalent CO₂ (CO₂e), du puits à la roue (amont de l'énergie inclus) : en kilogrammes (kg CO₂e) sur ce relevé, en grammes (g CO₂e) par commande et sur les factures.",
  "Méthode : distance de chaque tournée (la distance parcourue, arrêts dans l'ordre des livraisons, une fois la tournée terminée ; sinon la distance planifiée ; sinon une valeur par défaut par arrêt selon la zone et le service) × facteur d'émission du type de véhicule (gazole routier 3,17 kg CO₂e/l ; électricité consommée en France métropolitaine 0,048 kg CO₂e/kWh : arrêté du 26 avril 2017, annexe), réparti entre les colis de la tournée au prorata du nombre de colis (ISO 14083). Avant toute tournée : distance par défaut d'un arrêt, véhicule utilitaire gazole (niveau 1).",
  'Niveaux de données : niveau 1, valeurs par défaut (distance par zone et service, ou véhicule inconnu) ; niveau 2, véhicule et distance planifiée de la tournée ; niveau 3, véhicule et distance parcourue ; niveau 4, consommation mesurée (non produit).',
  `Identifiant de méthode : ${EMISSION_METHOD}.`,
].join('\n');
