-- Price grids: the operator's default (scope 'default') and each brand's negotiated grid.
-- A grid is replaced whole on import; `version` rises on every import so that every API instance
-- notices the change (it polls max(version)) and drops its in-memory copy.
CREATE SEQUENCE price_grid_versions;

CREATE TABLE price_grids (
  scope       text PRIMARY KEY,
  brand_id    text REFERENCES brands (id),
  rows        jsonb NOT NULL,
  row_count   integer NOT NULL CHECK (row_count > 0),
  source      text,
  version     bigint NOT NULL DEFAULT nextval('price_grid_versions'),
  imported_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((scope = 'default' AND brand_id IS NULL) OR scope = brand_id)
);
