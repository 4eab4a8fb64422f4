import type { AcceptanceRow } from './acceptances.repository.js';
import type { RiskAcceptanceView } from './acceptances.schemas.js';

/** A row to the wire shape: the acceptor named, the place columns (used for the read rule) left out. */
export function toAcceptanceView(row: AcceptanceRow): RiskAcceptanceView {
  const { accepted_by_name, legal_entity_id: _entity, business_unit_id: _unit, row_version: _version, ...acceptance } = row;
  return { ...acceptance, in_force: Boolean(row.in_force), accepted_by_user: { id: row.accepted_by, full_name: accepted_by_name } };
}
