import { describe, expect, it } from 'vitest';
import { cellFilterLabel, filtersFrom, paramsWith } from '../src/features/risk-register/register-filters';

describe('the risk register filters in the address', () => {
  it('reads a heat-map cell query as the service wrote it into the API query', () => {
    const filters = filtersFrom(new URLSearchParams('legal_entity_id=e1&residual_impact=4&residual_likelihood=3&above_appetite=true&include_live=false'));
    expect(filters).toEqual({ legal_entity_id: 'e1', residual_impact: 4, residual_likelihood: 3, above_appetite: true, include_live: false });
  });

  it('keeps the acceptance filter (accepted=true|false) like the other flags', () => {
    expect(filtersFrom(new URLSearchParams('accepted=false'))).toEqual({ accepted: false });
    expect(paramsWith(new URLSearchParams('accepted=false&page=2'), { accepted: 'true' }).toString()).toBe('accepted=true');
    expect(paramsWith(new URLSearchParams('accepted=true'), { accepted: null }).toString()).toBe('');
  });

  it('leaves out what it does not know and values that are not filters', () => {
    expect(filtersFrom(new URLSearchParams('page=3&colour=red&inherent_impact=x&above_appetite=yes&category='))).toEqual({});
  });

  it('a change of filter sets or removes it and drops the page', () => {
    const next = paramsWith(new URLSearchParams('page=4&category=Fraud&risk_level=High'), { category: null, above_appetite: true });
    expect(next.toString()).toBe('risk_level=High&above_appetite=true');
  });

  it('names the cell a filter selects', () => {
    expect(cellFilterLabel({ residual_impact: 4, residual_likelihood: 3 })).toBe('Residual impact 4 × likelihood 3');
    expect(cellFilterLabel({ inherent_impact: 2 })).toBe('Inherent impact 2 × likelihood any');
    expect(cellFilterLabel({ category: 'Fraud' })).toBeNull();
  });
});
