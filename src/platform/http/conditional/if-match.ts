import { AppError } from '../../errors/app-error.js';
import { stateChanged, stateTag, type Expectation, type ResourceState } from '../../versions/resource-state.js';
import { parseTagList, strongMatch } from './entity-tags.js';

/**
 * The expectation of a change as its If-Match header states it (RFC 9110 13.1.1), for the service to check
 * under the row lock: `*` matches any current state; a list of tags matches when one of them is, by strong
 * comparison, the current state's tag (so a weak tag never matches, nor a tag of another version or of
 * another representation of this version). Without the header: nothing expected, unless REQUIRE_IF_MATCH
 * makes it mandatory (428, with no current tag: a client must read before it changes).
 */
export function ifMatchExpectation(header: string | string[] | undefined, required: boolean): Expectation | null {
  const tags = parseTagList(header);
  if (tags === null) return required ? MISSING : null;
  if (tags === '*') return ANY;
  return {
    needsState: true,
    check(current: ResourceState | null) {
      if (current !== null) {
        const tag = stateTag(current);
        if (tags.some((candidate) => strongMatch(candidate, tag))) return;
      }
      throw stateChanged(current);
    },
    checkAbsent() {
      throw stateChanged(null);
    },
  };
}

const ANY: Expectation = {
  needsState: false,
  check() {},
  // `*` names no state, only that one exists: creating one is not a change of an existing state.
  checkAbsent() {
    throw stateChanged(null);
  },
};

const MISSING: Expectation = {
  needsState: false,
  check() {
    throw new AppError('PRECONDITION_REQUIRED', 'This change needs an If-Match header with the ETag you last read');
  },
  // REQUIRE_IF_MATCH does not require If-Match to create (there is nothing to have read).
  checkAbsent() {},
};
