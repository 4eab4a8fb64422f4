/**
 * Generated from the Risk Assurance Service's OpenAPI document (GET /api/v1/openapi.json) by
 * `npm run client:generate`. Do not edit: a test fails when this file and the served document disagree.
 */

export interface paths {
    "/api/v1/admin/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List system alerts
         * @description Alerts raised by the service (D9.5), newest first, filtered by status and severity. Super admin only.
         */
        get: operations["admin.alerts.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/alerts/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Acknowledge or resolve a system alert
         * @description Acknowledge an open alert (with optional notes) or resolve an open or acknowledged one (with an optional resolution). A resolved alert frees its cause: the same condition may raise a new alert. Super admin only.
         */
        patch: operations["admin.alerts.update"];
        trace?: never;
    };
    "/api/v1/admin/enterprises": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List enterprises
         * @description Super admin only. Newest first, with monthly revenue, active users and live BRAs (4.7, D9.1).
         */
        get: operations["admin.enterprises.list"];
        put?: never;
        /**
         * Create an enterprise
         * @description Super admin only. Also creates the enterprise-default risk appetite (Medium, 9) and the starter risk-scenario catalogue (D6.3, D6.9).
         */
        post: operations["admin.enterprises.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/enterprises/{enterprise_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the status or subscription tier of an enterprise
         * @description Super admin only (4.7).
         */
        patch: operations["admin.enterprises.update"];
        trace?: never;
    };
    "/api/v1/admin/enterprises/{enterprise_id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the users of an enterprise
         * @description Super admin for any enterprise, client admin for its own (D5). Newest first; active users only unless include_inactive=true.
         */
        get: operations["admin.users.list"];
        put?: never;
        /**
         * Add a user to an enterprise
         * @description Creates the user and the membership. Super admin may add any role; client admin only assessors and reviewers, in its own enterprise (4.7, D9.3). The password is then set through the identity provider (PUT /auth/v1/admin/users/{user_id}).
         */
        post: operations["admin.users.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Deactivate a user
         * @description Soft delete (D9.3): the user and membership become inactive, every session ends at once, the audit history stays. Callers cannot deactivate themselves (409).
         */
        delete: operations["admin.users.deactivate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/legal-entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a legal entity
         * @description Client admins only; the entity belongs to the caller's enterprise (D6.2).
         */
        post: operations["legal_entities.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/legal-entities/{id}/business-units": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a business unit of a legal entity
         * @description Client admins only. A legal entity of another enterprise answers 404 (D2.2).
         */
        post: operations["business_units.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{user_id}/entity-roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user's entity roles
         * @description Super admin for any user, client admin for users of its own enterprise; another enterprise answers 404 (D5, D9.4).
         */
        get: operations["admin.entity_roles.list"];
        put?: never;
        /**
         * Assign a legal entity (or one of its business units) to a user
         * @description Super admin for any user, client admin for users of its own enterprise; another enterprise answers 404 (D5, D9.4). A legal entity or unit that is not the enterprise's, or a unit of another entity, is 400 INVALID_REFERENCE; the same assignment twice is 409.
         */
        post: operations["admin.entity_roles.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{user_id}/entity-roles/{role_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an entity role from a user
         * @description Super admin for any user, client admin for users of its own enterprise; another enterprise answers 404 (D5, D9.4).
         */
        delete: operations["admin.entity_roles.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search the audit trail
         * @description The enterprise's audit entries, newest first (trail order), filtered by action, entity type, user and inclusive UTC dates. Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5). The platform trail (super admins' changes) is never listed.
         */
        get: operations["audit.search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the signed checkpoints of the audit trail
         * @description Signed heads of the enterprise's trail, newest first; keep one to verify the trail later. Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).
         */
        get: operations["audit.checkpoints.list"];
        put?: never;
        /**
         * Sign the head of the audit trail now
         * @description Signs the current head of the enterprise's trail (the service also does so periodically). The creation is itself audited, and the checkpoint covers that entry. Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).
         */
        post: operations["audit.checkpoints.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the audit trail as a file
         * @description The entries the same filters select, newest first, streamed as a download (D7.6): JSON (an array of entries, the default) or CSV (columns id, created_at, user_id, user_email, user_name, action_type, entity_type, entity_id, status, ip_address, user_agent, action_details). File name audit-export-<YYYYMMDD>.<json|csv>. Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).
         */
        get: operations["audit.export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify the enterprise's audit hash chain
         * @description Recomputes every entry's hash in trail order (in batches) and checks the chain against the signed checkpoints, so that a trail rewritten with recomputed hashes is still detected (D7.5). Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).
         */
        get: operations["audit.verify"];
        put?: never;
        /**
         * Verify the audit trail against a checkpoint you kept
         * @description Checks that today's trail still holds exactly the head a checkpoint signed (as GET /audit/checkpoints listed it), even if the trail and the stored checkpoints were rewritten since. The signature must verify with the public_key given beside the checkpoint, else with a key the service trusts; otherwise 422. A checkpoint of another enterprise is 404. The chain is then walked as GET /audit/verify walks it, with the kept checkpoint as one more anchor: a rewrite before it is named at its entry (checkpoint_mismatch), entries gone past it are missing_entries. Client admins and reviewers (the whole enterprise); assessors and super admins get 403 (D5).
         */
        post: operations["audit.verify_checkpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List BRAs
         * @description Client admins see every BRA of the enterprise; assessors and reviewers those of their assigned entities and units (D5). A filter naming an entity or unit unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403. Newest first.
         */
        get: operations["bras.list"];
        put?: never;
        /**
         * Create a BRA
         * @description Client admins, and assessors for their assigned entities (4.2 rules 1–4). The BRA starts as draft and its `created` snapshot is taken in the same transaction.
         */
        post: operations["bras.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a BRA with its scenarios, controls and summary
         * @description Readable by client admins, and by assessors and reviewers assigned to its entity or unit (D5).
         */
        get: operations["bras.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a BRA
         * @description Only while draft or in progress (4.2); by client admins, or by the assessor who created it while still assigned. legal_entity_id, business_unit_id and status cannot be sent (422).
         */
        patch: operations["bras.update"];
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a BRA
         * @description Client admins only. From in_progress or under_review (else 409 INVALID_STATE); every included scenario needs an inherent and a residual rating (else 409 RATINGS_INCOMPLETE with details.missing, the scenario link ids). Takes the `approved` snapshot.
         */
        post: operations["bras.approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a BRA
         * @description Client admins only. Any state but approved and cancelled (else 409 INVALID_STATE); a cancelled BRA cannot be reopened.
         */
        post: operations["bras.cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a BRA's linked controls
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). With the sub-controls' current test results.
         */
        get: operations["bras.control.list"];
        put?: never;
        /**
         * Link a sub-control to a BRA
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7). The same sub-control twice: 409 CONFLICT.
         */
        post: operations["bras.control.link"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/ratings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a BRA's ratings
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). The current rating of each scenario link and type; history=true adds the superseded ones. Newest first.
         */
        get: operations["bras.rating.list"];
        put?: never;
        /**
         * Record a rating of a scenario of a BRA
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7). A new rating of the same scenario link and type supersedes the earlier one, which is kept.
         */
        post: operations["bras.rating.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/return": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Return a BRA to the assessor
         * @description under_review → in_progress (D6.7); client admins only.
         */
        post: operations["bras.return"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/scenarios": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a BRA's scenarios
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). Each with its current ratings (null when missing).
         */
        get: operations["bras.scenario.list"];
        put?: never;
        /**
         * Add a catalogue scenario to a BRA
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7). The same scenario twice: 409 CONFLICT.
         */
        post: operations["bras.scenario.add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/scenarios/{link_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Include or exclude a scenario of a BRA
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7).
         */
        patch: operations["bras.scenario.update"];
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a BRA's snapshots
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). Newest first.
         */
        get: operations["bras.snapshot.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/snapshots/{snapshot_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a snapshot of a BRA
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). The get-BRA data as it was, and the methodology (risk bands, applicable appetite) it was computed under.
         */
        get: operations["bras.snapshot.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a BRA for review
         * @description in_progress → under_review (D6.7); client admins or the assessor who created it.
         */
        post: operations["bras.submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/effectiveness": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Effectiveness summary of the sub-controls
         * @description Every member role (D5). Without filters: the whole library. With legal_entity_id and/or business_unit_id: the sub-controls linked to BRAs of that entity or unit (D7.1); an assessor or reviewer naming an entity or unit not assigned to them gets 403; an id not of the enterprise, or a unit of another entity, is 400 INVALID_REFERENCE. Archived sub-controls are left out unless archived=true.
         */
        get: operations["controls.effectiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/heat-map": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Heat map of sub-controls by ToD and ToE
         * @description Every member role (D5). Without filters: the whole library. With legal_entity_id and/or business_unit_id: the sub-controls linked to BRAs of that entity or unit (D7.1); an assessor or reviewer naming an entity or unit not assigned to them gets 403; an id not of the enterprise, or a unit of another entity, is 400 INVALID_REFERENCE. Archived sub-controls are left out unless archived=true.
         */
        get: operations["controls.heat_map"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/key-controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List key controls with their sub-controls
         * @description The enterprise's control library, newest first, every member role (D5); archived key controls and sub-controls only with archived=true.
         */
        get: operations["controls.key_control.list"];
        put?: never;
        /**
         * Create a key control
         * @description Client admins only (D5).
         */
        post: operations["controls.key_control.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/key-controls/{key_control_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename or describe a key control
         * @description Client admins only (D5, D7.2). An archived key control cannot be changed (409 INVALID_STATE).
         */
        patch: operations["controls.key_control.update"];
        trace?: never;
    };
    "/api/v1/controls/key-controls/{key_control_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a key control and its sub-controls
         * @description Client admins only (D5, D7.2). Archives its sub-controls in the same transaction; archiving again changes nothing.
         */
        post: operations["controls.key_control.archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/sub-controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sub-controls
         * @description Every member role (D5); newest first; archived ones only with archived=true. A key_control_id that is not of the enterprise is 400 INVALID_REFERENCE.
         */
        get: operations["controls.sub_control.list"];
        put?: never;
        /**
         * Create a sub-control
         * @description Client admins only (D5). total_effectiveness is computed from tod and toe (3.5); sending it is a 422. An unknown key_control_id is 400 INVALID_REFERENCE, an archived one 409 INVALID_STATE.
         */
        post: operations["controls.sub_control.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/controls/sub-controls/{sub_control_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Record test results of a sub-control
         * @description Client admins and assessors (D5). The service recomputes total_effectiveness (3.5). An archived sub-control cannot be changed (409 INVALID_STATE).
         */
        patch: operations["controls.sub_control.update"];
        trace?: never;
    };
    "/api/v1/controls/sub-controls/{sub_control_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a sub-control
         * @description Client admins only (D5, D7.2). Archiving again changes nothing.
         */
        post: operations["controls.sub_control.archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/governance/risk-appetite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List risk appetites
         * @description Client admins see every record of the enterprise; assessors and reviewers the enterprise default and the records of the entities and units they are assigned to (D5). A filter naming an unassigned entity or unit answers 403 (D10.1). Newest first; not paginated.
         */
        get: operations["governance.risk_appetite.list"];
        put?: never;
        /**
         * Create or update the risk appetite of a scope
         * @description One record per scope (enterprise default, legal entity, or business unit): 201 when it creates the record, 200 when it updates it (D7.4). Every change writes a history entry and an audit entry. Client admins only.
         */
        post: operations["governance.risk_appetite.upsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/governance/risk-appetite/{risk_appetite_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a risk appetite override
         * @description Removes an entity- or unit-level override; the scope falls back to the next applicable appetite (D6.9). The enterprise default cannot be deleted (409 INVALID_STATE). Writes a history entry. Client admins only.
         */
        delete: operations["governance.risk_appetite.delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/governance/risk-appetite/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the risk appetite change history
         * @description Every change of a risk appetite, newest first, optionally of one record or one legal entity (D7.4). Scope as for the list (D5).
         */
        get: operations["governance.risk_appetite.history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/legal-entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List legal entities with their business units
         * @description Client admins see every legal entity of their enterprise; assessors and reviewers those they are assigned to (D5). Newest first (D2.5); not paginated.
         */
        get: operations["legal_entities.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The authenticated caller
         * @description Who the token belongs to, with the role and entity assignments taken from our records (D4.4).
         */
        get: operations["me.get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mitigation-actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List mitigation actions
         * @description Client admins: every action of the enterprise; assessors: actions of BRAs of their assigned entities and the unlinked actions they created; reviewers: actions of BRAs of their assigned entities (D5). Newest first (D2.5). Filters combine (and). Super admins: 403.
         */
        get: operations["actions.list"];
        put?: never;
        /**
         * Create a mitigation action
         * @description Client admins and assessors (within their scope, D5); status starts at created. A bra_id not of the enterprise, a bra_risk_scenario_id without its bra_id or of another BRA: 400 INVALID_REFERENCE (D7.3).
         */
        post: operations["actions.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mitigation-actions/{action_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a mitigation action
         * @description Client admins and assessors within their scope (D5). Answers the id, the fields sent, is_overdue and updated_at. An archived action: 409 INVALID_STATE (D7.3).
         */
        patch: operations["actions.update"];
        trace?: never;
    };
    "/api/v1/mitigation-actions/{action_id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a mitigation action
         * @description Client admins and assessors within their scope (D5). Idempotent: archiving an archived action answers 200 and changes nothing. Archived actions leave the list unless archived=true, and cannot be changed.
         */
        post: operations["actions.archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mitigation-actions/bulk-update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change several mitigation actions at once
         * @description All or nothing, in one transaction (D7.3): an id that is unknown or outside the caller's scope answers 404, an archived one 409 INVALID_STATE, and nothing changes. One audit entry per action.
         */
        post: operations["actions.bulk_update"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/risk-scenarios": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the risk scenario catalogue
         * @description The whole catalogue of the caller's enterprise, for every member role (D5); newest first (D2.5).
         */
        get: operations["risk_scenarios.list"];
        put?: never;
        /**
         * Add a risk scenario to the catalogue
         * @description Client admins only (D5, D6.3).
         */
        post: operations["risk_scenarios.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys (ES256) that sign access tokens
         * @description No apikey needed. Only public key members are published.
         */
        get: operations["auth.jwks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/admin/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the password of a known user (service-role key)
         * @description Authorization: Bearer <AUTH_SERVICE_ROLE_KEY>. Passwords have at least 8 characters.
         */
        put: operations["auth.admin.user.update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys (ES256) that sign access tokens
         * @description No apikey needed. Only public key members are published.
         */
        get: operations["auth.jwks.alias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign out: revoke this session, every session of the user, or all others */
        post: operations["auth.logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with e-mail and password, or exchange a refresh token
         * @description grant_type=password takes { email, password }; grant_type=refresh_token takes { refresh_token } and rotates it: the presented token stops working, and presenting it again revokes the whole session.
         */
        post: operations["auth.token"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user of the access token */
        get: operations["auth.user"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service and database health */
        get: operations["platform.health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Error */
        ErrorBody: {
            /** @description Machine code (decisions.md D2.2) */
            code: string;
            /** @description Extra information */
            details?: {
                [key: string]: unknown;
            };
            /** @description Descriptive message */
            error: string;
            /** @description The X-Request-Id of the request */
            request_id: string;
            /** @description Seconds to wait (429 only) */
            retry_after?: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "admin.alerts.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description How grave the condition is */
                severity?: "info" | "warning" | "error" | "critical";
                /** @description Where the alert is in its life (3.3) */
                status?: "open" | "acknowledged" | "resolved";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of alerts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "type": "enterprise_health",
                     *           "severity": "info",
                     *           "title": "A short title",
                     *           "message": "Done",
                     *           "enterprise_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "status": "open",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "acknowledged_at": "2026-03-02T09:30:00.000Z",
                     *           "acknowledged_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "notes": "Checked with the operations team.",
                     *           "resolved_at": "2026-03-02T09:30:00.000Z",
                     *           "resolved_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "resolution": "Restarted the failing job; it ran cleanly."
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            acknowledged_at: string | null;
                            acknowledged_by: string | null;
                            /**
                             * Format: date-time
                             * @description When the alert was raised
                             */
                            created_at: string;
                            enterprise_id: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description What was observed */
                            message: string;
                            notes: string | null;
                            resolution: string | null;
                            resolved_at: string | null;
                            resolved_by: string | null;
                            /**
                             * @description How grave the condition is
                             * @enum {unknown}
                             */
                            severity: "info" | "warning" | "error" | "critical";
                            /**
                             * @description Where the alert is in its life (3.3)
                             * @enum {unknown}
                             */
                            status: "open" | "acknowledged" | "resolved";
                            /** @description One-line summary */
                            title: string;
                            /**
                             * @description What the alert is about (D9.5 states the condition of each type)
                             * @enum {unknown}
                             */
                            type: "enterprise_health" | "authentication" | "performance" | "database" | "system";
                        }[];
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.alerts.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the alert */
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "acknowledged",
                 *       "notes": "Checked with the operations team.",
                 *       "resolution": "Restarted the failing job; it ran cleanly."
                 *     }
                 */
                "application/json": {
                    /** @description Only with status acknowledged: notes kept on the alert, at most 5,000 characters */
                    notes?: string;
                    /** @description Only with status resolved: how it was resolved, at most 5,000 characters */
                    resolution?: string;
                    /**
                     * @description acknowledged (only from open) or resolved (from open or acknowledged); otherwise 409 INVALID_STATE
                     * @enum {unknown}
                     */
                    status: "acknowledged" | "resolved";
                };
            };
        };
        responses: {
            /** @description The change made */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "acknowledged",
                     *         "acknowledged_at": "2026-03-02T09:30:00.000Z",
                     *         "acknowledged_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "notes": "Checked with the operations team.",
                     *         "resolved_at": "2026-03-02T09:30:00.000Z",
                     *         "resolved_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "resolution": "Restarted the failing job; it ran cleanly."
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description On acknowledgement
                             */
                            acknowledged_at?: string;
                            /**
                             * Format: uuid
                             * @description On acknowledgement: the caller
                             */
                            acknowledged_by?: string;
                            /** Format: uuid */
                            id: string;
                            notes?: string | null;
                            resolution?: string | null;
                            /**
                             * Format: date-time
                             * @description On resolution
                             */
                            resolved_at?: string;
                            /**
                             * Format: uuid
                             * @description On resolution: the caller
                             */
                            resolved_by?: string;
                            /**
                             * @description The new status
                             * @enum {unknown}
                             */
                            status: "acknowledged" | "resolved";
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.enterprises.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description Only enterprises in this status */
                status?: "active" | "inactive";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list enterprises */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd",
                     *           "country": "GB",
                     *           "registration_number": "01234567",
                     *           "status": "active",
                     *           "subscription_tier": "starter",
                     *           "mrr_cents": 1,
                     *           "user_count": 1,
                     *           "bra_count": 1,
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description BRAs other than cancelled ones */
                            bra_count: number;
                            /** @description ISO 3166-1 alpha-2 code */
                            country: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description Monthly revenue: the tier's price, 0 while inactive (D9.1) */
                            mrr_cents: number;
                            name: string;
                            registration_number: string | null;
                            /**
                             * @description active or inactive (3.4)
                             * @enum {unknown}
                             */
                            status: "active" | "inactive";
                            /**
                             * @description starter, professional or enterprise (D9.1)
                             * @enum {unknown}
                             */
                            subscription_tier: "starter" | "professional" | "enterprise";
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Active members */
                            user_count: number;
                        }[];
                        /** @description Human-readable success text */
                        message?: string;
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.enterprises.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "country": "AD",
                 *       "registration_number": "01234567"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description ISO 3166-1 alpha-2 code, upper case (D9.2)
                     * @enum {unknown}
                     */
                    country: "AD" | "AE" | "AF" | "AG" | "AI" | "AL" | "AM" | "AO" | "AQ" | "AR" | "AS" | "AT" | "AU" | "AW" | "AX" | "AZ" | "BA" | "BB" | "BD" | "BE" | "BF" | "BG" | "BH" | "BI" | "BJ" | "BL" | "BM" | "BN" | "BO" | "BQ" | "BR" | "BS" | "BT" | "BV" | "BW" | "BY" | "BZ" | "CA" | "CC" | "CD" | "CF" | "CG" | "CH" | "CI" | "CK" | "CL" | "CM" | "CN" | "CO" | "CR" | "CU" | "CV" | "CW" | "CX" | "CY" | "CZ" | "DE" | "DJ" | "DK" | "DM" | "DO" | "DZ" | "EC" | "EE" | "EG" | "EH" | "ER" | "ES" | "ET" | "FI" | "FJ" | "FK" | "FM" | "FO" | "FR" | "GA" | "GB" | "GD" | "GE" | "GF" | "GG" | "GH" | "GI" | "GL" | "GM" | "GN" | "GP" | "GQ" | "GR" | "GS" | "GT" | "GU" | "GW" | "GY" | "HK" | "HM" | "HN" | "HR" | "HT" | "HU" | "ID" | "IE" | "IL" | "IM" | "IN" | "IO" | "IQ" | "IR" | "IS" | "IT" | "JE" | "JM" | "JO" | "JP" | "KE" | "KG" | "KH" | "KI" | "KM" | "KN" | "KP" | "KR" | "KW" | "KY" | "KZ" | "LA" | "LB" | "LC" | "LI" | "LK" | "LR" | "LS" | "LT" | "LU" | "LV" | "LY" | "MA" | "MC" | "MD" | "ME" | "MF" | "MG" | "MH" | "MK" | "ML" | "MM" | "MN" | "MO" | "MP" | "MQ" | "MR" | "MS" | "MT" | "MU" | "MV" | "MW" | "MX" | "MY" | "MZ" | "NA" | "NC" | "NE" | "NF" | "NG" | "NI" | "NL" | "NO" | "NP" | "NR" | "NU" | "NZ" | "OM" | "PA" | "PE" | "PF" | "PG" | "PH" | "PK" | "PL" | "PM" | "PN" | "PR" | "PS" | "PT" | "PW" | "PY" | "QA" | "RE" | "RO" | "RS" | "RU" | "RW" | "SA" | "SB" | "SC" | "SD" | "SE" | "SG" | "SH" | "SI" | "SJ" | "SK" | "SL" | "SM" | "SN" | "SO" | "SR" | "SS" | "ST" | "SV" | "SX" | "SY" | "SZ" | "TC" | "TD" | "TF" | "TG" | "TH" | "TJ" | "TK" | "TL" | "TM" | "TN" | "TO" | "TR" | "TT" | "TV" | "TW" | "TZ" | "UA" | "UG" | "UM" | "US" | "UY" | "UZ" | "VA" | "VC" | "VE" | "VG" | "VI" | "VN" | "VU" | "WF" | "WS" | "YE" | "YT" | "ZA" | "ZM" | "ZW";
                    /** @description Enterprise name, unique case-insensitively */
                    name: string;
                    /** @description Company registration number */
                    registration_number?: string;
                };
            };
        };
        responses: {
            /** @description Created: create an enterprise */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "country": "GB",
                     *         "registration_number": "01234567",
                     *         "status": "active",
                     *         "subscription_tier": "starter",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            country: string;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            registration_number: string | null;
                            /**
                             * @description Always active for a new enterprise
                             * @enum {unknown}
                             */
                            status: "active" | "inactive";
                            /**
                             * @description Always starter for a new enterprise
                             * @enum {unknown}
                             */
                            subscription_tier: "starter" | "professional" | "enterprise";
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.enterprises.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                enterprise_id: string;
            };
            cookie?: never;
        };
        /** @description At least one of status, subscription_tier */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "active",
                 *       "subscription_tier": "starter"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description active or inactive (3.4)
                     * @enum {unknown}
                     */
                    status?: "active" | "inactive";
                    /**
                     * @description starter, professional or enterprise (D9.1)
                     * @enum {unknown}
                     */
                    subscription_tier?: "starter" | "professional" | "enterprise";
                };
            };
        };
        responses: {
            /** @description Success: change the status or subscription tier of an enterprise */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "active",
                     *         "subscription_tier": "starter",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description active or inactive (3.4)
                             * @enum {unknown}
                             */
                            status: "active" | "inactive";
                            /**
                             * @description starter, professional or enterprise (D9.1)
                             * @enum {unknown}
                             */
                            subscription_tier: "starter" | "professional" | "enterprise";
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.users.list": {
        parameters: {
            query?: {
                /** @description true also lists deactivated users */
                include_inactive?: boolean;
            };
            header?: never;
            path: {
                enterprise_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list the users of an enterprise */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "email": "alex.morgan@example.com",
                     *           "full_name": "Alex Morgan",
                     *           "role": "admin",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "last_login": "2026-03-02T09:30:00.000Z",
                     *           "active": true,
                     *           "deactivated_at": "2026-03-02T09:30:00.000Z",
                     *           "entity_assignments": [
                     *             {
                     *               "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *               "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *               "name": "Northwind Trading Ltd",
                     *               "business_unit_name": "Retail Banking"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description false for deactivated users (listed only with include_inactive=true) */
                            active: boolean;
                            /**
                             * Format: date-time
                             * @description When the user joined the enterprise
                             */
                            created_at: string;
                            deactivated_at: string | null;
                            email: string;
                            /** @description Legal entities (and units) the user is assigned to */
                            entity_assignments: {
                                business_unit_id: string | null;
                                business_unit_name: string | null;
                                /** Format: uuid */
                                legal_entity_id: string;
                                /** @description Name of the legal entity */
                                name: string;
                            }[];
                            full_name: string;
                            /**
                             * Format: uuid
                             * @description The enterprise membership
                             */
                            id: string;
                            /**
                             * Format: date-time
                             * @description Last sign-in; absent when the user has never signed in
                             */
                            last_login?: string;
                            /**
                             * @description admin, assessor or reviewer
                             * @enum {unknown}
                             */
                            role: "admin" | "assessor" | "reviewer";
                            /**
                             * Format: uuid
                             * @description The user: what the identity provider admin call and the entity-role endpoints take
                             */
                            user_id: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.users.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                enterprise_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "alex.morgan@example.com",
                 *       "full_name": "Alex Morgan",
                 *       "role": "admin"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: email
                     * @description E-mail address, unique among active users (case-insensitive); stored lower-case
                     */
                    email: string;
                    /** @description Full name */
                    full_name: string;
                    /**
                     * @description admin (super admin only), assessor or reviewer
                     * @enum {unknown}
                     */
                    role: "admin" | "assessor" | "reviewer";
                };
            };
        };
        responses: {
            /** @description Created: add a user to an enterprise */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "email": "alex.morgan@example.com",
                     *         "full_name": "Alex Morgan",
                     *         "role": "admin",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            full_name: string;
                            /**
                             * Format: uuid
                             * @description The enterprise membership
                             */
                            id: string;
                            /**
                             * @description admin, assessor or reviewer
                             * @enum {unknown}
                             */
                            role: "admin" | "assessor" | "reviewer";
                            /**
                             * Format: uuid
                             * @description The user: PUT /auth/v1/admin/users/{user_id} sets the password
                             */
                            user_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.users.deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                enterprise_id: string;
                /** @description The user id (not the membership id) */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: deactivate a user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "legal_entities.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two."
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description Name of the legal entity, unique in the enterprise (case-insensitive); at most 200 characters */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created: create a legal entity */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the legal entity, unique in the enterprise (case-insensitive) */
                            name: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "business_units.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd"
                 *     }
                 */
                "application/json": {
                    /** @description Name of the business unit, unique within the legal entity (case-insensitive); at most 200 characters */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created: create a business unit of a legal entity */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The legal entity the unit belongs to
                             */
                            legal_entity_id: string;
                            /** @description Name of the business unit, unique within its legal entity (case-insensitive) */
                            name: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.entity_roles.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a user's entity roles */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "legal_entity_name": "legal entity name",
                     *           "business_unit_name": "Retail Banking"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            business_unit_name: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            legal_entity_id: string;
                            legal_entity_name: string;
                            /** Format: uuid */
                            user_id: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.entity_roles.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description A business unit of that legal entity; omitted: the whole entity
                     */
                    business_unit_id?: string;
                    /**
                     * Format: uuid
                     * @description A legal entity of the user's enterprise
                     */
                    legal_entity_id: string;
                };
            };
        };
        responses: {
            /** @description Created: assign a legal entity (or one of its business units) to a user */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            legal_entity_id: string;
                            /** Format: uuid */
                            user_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "admin.entity_roles.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The entity role assignment */
                role_id: string;
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: remove an entity role from a user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.search": {
        parameters: {
            query?: {
                /** @description Only entries of this action */
                action_type?: "create" | "update" | "delete" | "approve" | "cancel" | "login" | "logout" | "access_denied";
                /** @description Entries up to this UTC date (inclusive), YYYY-MM-DD */
                end_date?: string;
                /** @description Only entries about this kind of resource */
                entity_type?: "bra" | "bra_rating" | "control" | "mitigation_action" | "legal_entity" | "user" | "risk_appetite" | "risk_scenario" | "enterprise" | "system_alert" | "audit_checkpoint";
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description Entries from this UTC date on (inclusive), YYYY-MM-DD */
                start_date?: string;
                /** @description Only entries of this acting user */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "user_email": "user email",
                     *           "user_name": "user name",
                     *           "action_type": "action type",
                     *           "entity_type": "entity type",
                     *           "entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "action_details": {},
                     *           "ip_address": "ip address",
                     *           "user_agent": "user agent",
                     *           "status": "success",
                     *           "created_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true,
                     *         "total_is_estimate": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Change-specific JSON; `operation` (first) names the API operation that made the change */
                            action_details: {
                                [key: string]: unknown;
                            };
                            /** @description One of create, update, delete, approve, cancel, login, logout, access_denied */
                            action_type: string;
                            /**
                             * Format: date-time
                             * @description When the entry was written (never earlier than the entry before it in the trail)
                             */
                            created_at: string;
                            entity_id: string | null;
                            entity_type: string | null;
                            /** Format: uuid */
                            id: string;
                            ip_address: string | null;
                            /**
                             * @description failed for refusals (access_denied) and refused sign-ins
                             * @enum {unknown}
                             */
                            status: "success" | "failed";
                            user_agent: string | null;
                            user_email: string | null;
                            user_id: string | null;
                            user_name: string | null;
                        }[];
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            /** @description true when a filter on action_type, entity_type or user_id matches more than 10,000 entries: `total` (and `total_pages`) is then the planner's estimate, never below 10,001; `has_next` is always exact */
                            total_is_estimate: boolean;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.checkpoints.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of checkpoints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "enterprise_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "chain_seq": 1,
                     *           "last_entry_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "last_hash": "last hash",
                     *           "entry_count": 1,
                     *           "signed_at": "2026-03-02T09:30:00.000Z",
                     *           "algorithm": "Ed25519",
                     *           "key_id": "key id",
                     *           "public_key": "public key",
                     *           "signature": "signature"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            algorithm: "Ed25519";
                            /** @description Position of the last entry in the trail (1 is the first entry) */
                            chain_seq: number;
                            /**
                             * Format: uuid
                             * @description The enterprise whose trail was signed
                             */
                            enterprise_id: string;
                            /** @description Entries the trail held at signing time, from its first */
                            entry_count: number;
                            /** Format: uuid */
                            id: string;
                            /** @description First 16 hex digits of SHA-256 over the public key (SPKI DER) */
                            key_id: string;
                            /**
                             * Format: uuid
                             * @description The last entry at signing time
                             */
                            last_entry_id: string;
                            /** @description That entry's chain hash (hex SHA-256) */
                            last_hash: string;
                            /** @description The public key (SPKI PEM) that verifies the signature */
                            public_key: string;
                            /** @description Base64 Ed25519 signature of "risk-assurance audit checkpoint v1\n" followed by the canonical JSON (keys sorted, no spaces) of enterprise_id, chain_seq, last_entry_id, last_hash, entry_count and signed_at */
                            signature: string;
                            /**
                             * Format: date-time
                             * @description When the checkpoint was signed
                             */
                            signed_at: string;
                        }[];
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.checkpoints.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: sign the head of the audit trail now */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "enterprise_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "chain_seq": 1,
                     *         "last_entry_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "last_hash": "last hash",
                     *         "entry_count": 1,
                     *         "signed_at": "2026-03-02T09:30:00.000Z",
                     *         "algorithm": "Ed25519",
                     *         "key_id": "key id",
                     *         "public_key": "public key",
                     *         "signature": "signature"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            algorithm: "Ed25519";
                            /** @description Position of the last entry in the trail (1 is the first entry) */
                            chain_seq: number;
                            /**
                             * Format: uuid
                             * @description The enterprise whose trail was signed
                             */
                            enterprise_id: string;
                            /** @description Entries the trail held at signing time, from its first */
                            entry_count: number;
                            /** Format: uuid */
                            id: string;
                            /** @description First 16 hex digits of SHA-256 over the public key (SPKI DER) */
                            key_id: string;
                            /**
                             * Format: uuid
                             * @description The last entry at signing time
                             */
                            last_entry_id: string;
                            /** @description That entry's chain hash (hex SHA-256) */
                            last_hash: string;
                            /** @description The public key (SPKI PEM) that verifies the signature */
                            public_key: string;
                            /** @description Base64 Ed25519 signature of "risk-assurance audit checkpoint v1\n" followed by the canonical JSON (keys sorted, no spaces) of enterprise_id, chain_seq, last_entry_id, last_hash, entry_count and signed_at */
                            signature: string;
                            /**
                             * Format: date-time
                             * @description When the checkpoint was signed
                             */
                            signed_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.export": {
        parameters: {
            query?: {
                /** @description Only entries of this action */
                action_type?: "create" | "update" | "delete" | "approve" | "cancel" | "login" | "logout" | "access_denied";
                /** @description Entries up to this UTC date (inclusive), YYYY-MM-DD */
                end_date?: string;
                /** @description Only entries about this kind of resource */
                entity_type?: "bra" | "bra_rating" | "control" | "mitigation_action" | "legal_entity" | "user" | "risk_appetite" | "risk_scenario" | "enterprise" | "system_alert" | "audit_checkpoint";
                /** @description File format (default json) */
                format?: "json" | "csv";
                /** @description Entries from this UTC date on (inclusive), YYYY-MM-DD */
                start_date?: string;
                /** @description Only entries of this acting user */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, streamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example [
                     *       {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "user_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "user_email": "user email",
                     *         "user_name": "user name",
                     *         "action_type": "action type",
                     *         "entity_type": "entity type",
                     *         "entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "action_details": {},
                     *         "ip_address": "ip address",
                     *         "user_agent": "user agent",
                     *         "status": "success",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       }
                     *     ]
                     */
                    "application/json": {
                        /** @description Change-specific JSON; `operation` (first) names the API operation that made the change */
                        action_details: {
                            [key: string]: unknown;
                        };
                        /** @description One of create, update, delete, approve, cancel, login, logout, access_denied */
                        action_type: string;
                        /**
                         * Format: date-time
                         * @description When the entry was written (never earlier than the entry before it in the trail)
                         */
                        created_at: string;
                        entity_id: string | null;
                        entity_type: string | null;
                        /** Format: uuid */
                        id: string;
                        ip_address: string | null;
                        /**
                         * @description failed for refusals (access_denied) and refused sign-ins
                         * @enum {unknown}
                         */
                        status: "success" | "failed";
                        user_agent: string | null;
                        user_email: string | null;
                        user_id: string | null;
                        user_name: string | null;
                    }[];
                    "text/csv": string;
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: verify the enterprise's audit hash chain */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "valid": true,
                     *         "entries_checked": 1,
                     *         "first_invalid_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "checkpoints_checked": 1,
                     *         "failure": "hash_mismatch"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Signed checkpoints the chain was checked against */
                            checkpoints_checked: number;
                            /** @description Entries read before the walk ended */
                            entries_checked: number;
                            failure: ("hash_mismatch" | "broken_link" | "sequence_gap" | "checkpoint_mismatch" | "checkpoint_signature" | "missing_entries") | null;
                            first_invalid_id: string | null;
                            /** @description true when every entry and every signed checkpoint agree */
                            valid: boolean;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "audit.verify_checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "checkpoint": {
                 *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *         "enterprise_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                 *         "chain_seq": 1,
                 *         "last_entry_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                 *         "last_hash": "9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c",
                 *         "entry_count": 1,
                 *         "signed_at": "2026-03-02T09:30:00.000Z",
                 *         "algorithm": "Ed25519",
                 *         "key_id": "b39bc968af943177",
                 *         "public_key": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAcSZHqs4TrHuB8mQh+zeFIV84ATEuh1zV5JVa/eRjF14=\n-----END PUBLIC KEY-----\n",
                 *         "signature": "MkOi0xYn0RGoAH0Qn6T35qvYmSh3Ab2Jq3yBBUaTO4CqkWDxRCNJCVWru0jVBVp7yFYVo4C5VPiAw0smSUsFAA=="
                 *       },
                 *       "public_key": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAcSZHqs4TrHuB8mQh+zeFIV84ATEuh1zV5JVa/eRjF14=\n-----END PUBLIC KEY-----\n"
                 *     }
                 */
                "application/json": {
                    checkpoint: {
                        /** @enum {string} */
                        algorithm: "Ed25519";
                        /** @description Position of the last entry in the trail */
                        chain_seq: number;
                        enterprise_id: string | null;
                        /** @description Entries the trail held at signing time */
                        entry_count: number;
                        /**
                         * Format: uuid
                         * @description As listed; not signed, not used
                         */
                        id?: string;
                        /**
                         * @description Picks the trusted key that checks the signature when no public_key is given beside the checkpoint
                         * @example b39bc968af943177
                         */
                        key_id: string;
                        /**
                         * Format: uuid
                         * @description The last entry at signing time
                         */
                        last_entry_id: string;
                        /**
                         * @description That entry's chain hash (hex SHA-256)
                         * @example 9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c9f2c
                         */
                        last_hash: string;
                        /**
                         * @description As listed; never trusted on its own account (pin it as the top-level public_key)
                         * @example -----BEGIN PUBLIC KEY-----
                         *     MCowBQYDK2VwAyEAcSZHqs4TrHuB8mQh+zeFIV84ATEuh1zV5JVa/eRjF14=
                         *     -----END PUBLIC KEY-----
                         */
                        public_key?: string;
                        /**
                         * @description Base64 Ed25519 signature, as listed
                         * @example MkOi0xYn0RGoAH0Qn6T35qvYmSh3Ab2Jq3yBBUaTO4CqkWDxRCNJCVWru0jVBVp7yFYVo4C5VPiAw0smSUsFAA==
                         */
                        signature: string;
                        /**
                         * Format: date-time
                         * @description As listed (the signed text holds it exactly)
                         */
                        signed_at: string;
                    };
                    /**
                     * @description The Ed25519 public key (SPKI PEM) the auditor trusts. Given: the signature must verify with it. Omitted: with the service's current key or an earlier key it still trusts, chosen by the checkpoint's key_id.
                     * @example -----BEGIN PUBLIC KEY-----
                     *     MCowBQYDK2VwAyEAcSZHqs4TrHuB8mQh+zeFIV84ATEuh1zV5JVa/eRjF14=
                     *     -----END PUBLIC KEY-----
                     */
                    public_key?: string;
                };
            };
        };
        responses: {
            /** @description The verification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "valid": true,
                     *         "entries_checked": 1,
                     *         "first_invalid_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "checkpoints_checked": 1,
                     *         "failure": "hash_mismatch"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Signed checkpoints the chain was checked against */
                            checkpoints_checked: number;
                            /** @description Entries read before the walk ended */
                            entries_checked: number;
                            failure: ("hash_mismatch" | "broken_link" | "sequence_gap" | "checkpoint_mismatch" | "checkpoint_signature" | "missing_entries") | null;
                            first_invalid_id: string | null;
                            /** @description true when every entry and every signed checkpoint agree */
                            valid: boolean;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.list": {
        parameters: {
            query?: {
                /** @description Only BRAs of this business unit (403 when not assigned to the caller) */
                business_unit_id?: string;
                /** @description Only BRAs of this legal entity (403 when not assigned to the caller) */
                legal_entity_id?: string;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description Where the BRA is in its life (3.1, D6.7) */
                status?: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list BRAs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "status": "draft",
                     *           "period": "period",
                     *           "assessor": "assessor",
                     *           "start_date": "2026-03-31",
                     *           "completion_date": "2026-03-31",
                     *           "created_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "legal_entity": {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "business_unit": {
                     *             "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "approved_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "approved_at": "2026-03-02T09:30:00.000Z",
                     *           "final_comment": "final comment",
                     *           "snapshot_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "cancelled_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "cancelled_at": "2026-03-02T09:30:00.000Z",
                     *           "cancellation_reason": "cancellation reason"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            approved_at: string | null;
                            approved_by: string | null;
                            /** @description Name of the assessor */
                            assessor: string;
                            business_unit: {
                                /**
                                 * Format: uuid
                                 * @description The business unit
                                 */
                                id: string;
                                /** @description Name of the business unit */
                                name: string;
                            } | null;
                            business_unit_id: string | null;
                            cancellation_reason: string | null;
                            cancelled_at: string | null;
                            cancelled_by: string | null;
                            completion_date: string | null;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            description: string | null;
                            final_comment: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity: {
                                /**
                                 * Format: uuid
                                 * @description The legal entity
                                 */
                                id: string;
                                /** @description Name of the legal entity */
                                name: string;
                            };
                            /**
                             * Format: uuid
                             * @description The legal entity assessed; immutable
                             */
                            legal_entity_id: string;
                            /** @description Unique within the enterprise (case-insensitive) */
                            name: string;
                            /** @description Free-text label of the assessment period */
                            period: string;
                            snapshot_id: string | null;
                            start_date: string | null;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            /**
                             * Format: date-time
                             * @description Last change of the BRA or of its scenarios, ratings or control links
                             */
                            updated_at: string;
                        }[];
                        /** @description Human-readable success text */
                        message?: string;
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two.",
                 *       "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                 *       "period": "period",
                 *       "assessor": "assessor",
                 *       "start_date": "2026-03-31"
                 *     }
                 */
                "application/json": {
                    /** @description Name of the assessor, at most 200 characters */
                    assessor: string;
                    business_unit_id?: string | null;
                    description?: string | null;
                    /**
                     * Format: uuid
                     * @description A legal entity of the enterprise (assigned to the caller, for an assessor)
                     */
                    legal_entity_id: string;
                    /** @description Unique within the enterprise (case-insensitive); at most 200 characters */
                    name: string;
                    /** @description Free-text label of the assessment period, at most 200 characters */
                    period: string;
                    start_date?: string | null;
                };
            };
        };
        responses: {
            /** @description Created: create a BRA */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "status": "draft",
                     *         "period": "period",
                     *         "assessor": "assessor",
                     *         "start_date": "2026-03-31",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Name of the assessor */
                            assessor: string;
                            business_unit_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The legal entity assessed; immutable
                             */
                            legal_entity_id: string;
                            /** @description Unique within the enterprise (case-insensitive) */
                            name: string;
                            /** @description Free-text label of the assessment period */
                            period: string;
                            start_date: string | null;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            /**
                             * Format: date-time
                             * @description Last change of the BRA or of its scenarios, ratings or control links
                             */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: get a BRA with its scenarios, controls and summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "status": "draft",
                     *         "period": "period",
                     *         "assessor": "assessor",
                     *         "start_date": "2026-03-31",
                     *         "completion_date": "2026-03-31",
                     *         "created_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "legal_entity": {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd"
                     *         },
                     *         "business_unit": {
                     *           "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "name": "Northwind Trading Ltd"
                     *         },
                     *         "approved_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "approved_at": "2026-03-02T09:30:00.000Z",
                     *         "final_comment": "final comment",
                     *         "snapshot_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *         "cancelled_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "cancelled_at": "2026-03-02T09:30:00.000Z",
                     *         "cancellation_reason": "cancellation reason",
                     *         "scenarios": [
                     *           {
                     *             "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "risk_scenario_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "name": "Northwind Trading Ltd",
                     *             "category": "External fraud",
                     *             "included": true,
                     *             "inherent_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low"
                     *             },
                     *             "residual_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low"
                     *             }
                     *           }
                     *         ],
                     *         "controls": [
                     *           {
                     *             "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "key_control_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "key_control_name": "key control name",
                     *             "sub_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "sub_control_name": "sub control name",
                     *             "tod": "tod",
                     *             "toe": "toe",
                     *             "total_effectiveness": "total effectiveness"
                     *           }
                     *         ],
                     *         "summary": {
                     *           "total_scenarios": 1,
                     *           "assessed_scenarios": 1,
                     *           "risks_above_appetite": 1,
                     *           "completion_percentage": 1
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            approved_at: string | null;
                            approved_by: string | null;
                            /** @description Name of the assessor */
                            assessor: string;
                            business_unit: {
                                /**
                                 * Format: uuid
                                 * @description The business unit
                                 */
                                id: string;
                                /** @description Name of the business unit */
                                name: string;
                            } | null;
                            business_unit_id: string | null;
                            cancellation_reason: string | null;
                            cancelled_at: string | null;
                            cancelled_by: string | null;
                            completion_date: string | null;
                            /** @description Newest first */
                            controls: {
                                /**
                                 * Format: uuid
                                 * @description The control link
                                 */
                                id: string;
                                /** Format: uuid */
                                key_control_id: string;
                                key_control_name: string;
                                /** Format: uuid */
                                sub_control_id: string;
                                sub_control_name: string;
                                tod: string | null;
                                toe: string | null;
                                total_effectiveness: string | null;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            description: string | null;
                            final_comment: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity: {
                                /**
                                 * Format: uuid
                                 * @description The legal entity
                                 */
                                id: string;
                                /** @description Name of the legal entity */
                                name: string;
                            };
                            /**
                             * Format: uuid
                             * @description The legal entity assessed; immutable
                             */
                            legal_entity_id: string;
                            /** @description Unique within the enterprise (case-insensitive) */
                            name: string;
                            /** @description Free-text label of the assessment period */
                            period: string;
                            /** @description Newest first */
                            scenarios: {
                                /** @description Category of the catalogue scenario */
                                category: string;
                                /**
                                 * Format: uuid
                                 * @description The scenario link (what ratings and mitigation actions refer to)
                                 */
                                id: string;
                                /** @description Excluded scenarios need no ratings and are not counted in the summary */
                                included: boolean;
                                inherent_rating: {
                                    /** @description Impact, 1 to 5 */
                                    impact_score: number;
                                    /** @description Likelihood, 1 to 5 */
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    /** @description impact × likelihood */
                                    risk_score: number;
                                } | null;
                                /** @description Name of the catalogue scenario */
                                name: string;
                                residual_rating: {
                                    /** @description Impact, 1 to 5 */
                                    impact_score: number;
                                    /** @description Likelihood, 1 to 5 */
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    /** @description impact × likelihood */
                                    risk_score: number;
                                } | null;
                                /**
                                 * Format: uuid
                                 * @description The catalogue scenario
                                 */
                                risk_scenario_id: string;
                            }[];
                            snapshot_id: string | null;
                            start_date: string | null;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            summary: {
                                /** @description Included scenarios with both an inherent and a residual rating */
                                assessed_scenarios: number;
                                /** @description round(100 × assessed / total); 0 when total is 0 */
                                completion_percentage: number;
                                /** @description Included scenarios whose residual risk score exceeds the threshold of the BRA's applicable appetite (D6.9) */
                                risks_above_appetite: number;
                                /** @description Included scenarios */
                                total_scenarios: number;
                            };
                            /**
                             * Format: date-time
                             * @description Last change of the BRA or of its scenarios, ratings or control links
                             */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two.",
                 *       "period": "period",
                 *       "assessor": "assessor"
                 *     }
                 */
                "application/json": {
                    /** @description Name of the assessor, at most 200 characters */
                    assessor?: string;
                    description?: string | null;
                    /** @description Unique within the enterprise (case-insensitive); at most 200 characters */
                    name?: string;
                    /** @description Free-text label of the assessment period, at most 200 characters */
                    period?: string;
                };
            };
        };
        responses: {
            /** @description Success: change a BRA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "status": "draft",
                     *         "period": "period",
                     *         "assessor": "assessor",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Name of the assessor */
                            assessor: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Unique within the enterprise (case-insensitive) */
                            name: string;
                            /** @description Free-text label of the assessment period */
                            period: string;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            /**
                             * Format: date-time
                             * @description Last change of the BRA or of its scenarios, ratings or control links
                             */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.approve": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "final_comment": "final comment"
                 *     }
                 */
                "application/json": {
                    final_comment?: string | null;
                };
            };
        };
        responses: {
            /** @description Success: approve a BRA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "draft",
                     *         "approved_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "approved_at": "2026-03-02T09:30:00.000Z",
                     *         "final_comment": "final comment",
                     *         "snapshot_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            approved_at: string;
                            /**
                             * Format: uuid
                             * @description The approving client admin
                             */
                            approved_by: string;
                            final_comment: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description The snapshot taken at approval
                             */
                            snapshot_id: string;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "cancellation_reason": "cancellation reason"
                 *     }
                 */
                "application/json": {
                    cancellation_reason?: string | null;
                };
            };
        };
        responses: {
            /** @description Success: cancel a BRA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "draft",
                     *         "cancelled_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "cancelled_at": "2026-03-02T09:30:00.000Z",
                     *         "cancellation_reason": "cancellation reason"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            cancellation_reason: string | null;
                            /** Format: date-time */
                            cancelled_at: string;
                            /**
                             * Format: uuid
                             * @description The cancelling client admin
                             */
                            cancelled_by: string;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.control.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a BRA's linked controls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "key_control_name": "key control name",
                     *           "sub_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "sub_control_name": "sub control name",
                     *           "tod": "tod",
                     *           "toe": "toe",
                     *           "total_effectiveness": "total effectiveness"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: uuid
                             * @description The control link
                             */
                            id: string;
                            /** Format: uuid */
                            key_control_id: string;
                            key_control_name: string;
                            /** Format: uuid */
                            sub_control_id: string;
                            sub_control_name: string;
                            tod: string | null;
                            toe: string | null;
                            total_effectiveness: string | null;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.control.link": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "sub_control_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description A sub-control of the enterprise library, not archived, not yet linked to this BRA
                     */
                    sub_control_id: string;
                };
            };
        };
        responses: {
            /** @description Created: link a sub-control to a BRA */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "key_control_name": "key control name",
                     *         "sub_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "sub_control_name": "sub control name",
                     *         "tod": "tod",
                     *         "toe": "toe",
                     *         "total_effectiveness": "total effectiveness"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: uuid
                             * @description The control link
                             */
                            id: string;
                            /** Format: uuid */
                            key_control_id: string;
                            key_control_name: string;
                            /** Format: uuid */
                            sub_control_id: string;
                            sub_control_name: string;
                            tod: string | null;
                            toe: string | null;
                            total_effectiveness: string | null;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.rating.list": {
        parameters: {
            query?: {
                /** @description true adds the superseded ratings */
                history?: boolean;
            };
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a BRA's ratings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "rating_type": "inherent",
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low",
                     *           "justification": "justification",
                     *           "created_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "superseded_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: uuid
                             * @description The scenario link rated
                             */
                            bra_risk_scenario_id: string;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            /** Format: uuid */
                            id: string;
                            impact_score: number;
                            justification: string | null;
                            likelihood_score: number;
                            /**
                             * @description Before (inherent) or after (residual) controls
                             * @enum {unknown}
                             */
                            rating_type: "inherent" | "residual";
                            /**
                             * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                             * @enum {unknown}
                             */
                            risk_level: "Low" | "Medium" | "High" | "Very High";
                            /** @description impact × likelihood (D6.1) */
                            risk_score: number;
                            superseded_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.rating.create": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "bra_risk_scenario_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "rating_type": "inherent",
                 *       "impact_score": 1,
                 *       "likelihood_score": 1,
                 *       "justification": "justification"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description A scenario link of this BRA
                     */
                    bra_risk_scenario_id: string;
                    /** @description Impact, an integer 1 to 5 */
                    impact_score: number;
                    justification?: string | null;
                    /** @description Likelihood, an integer 1 to 5 */
                    likelihood_score: number;
                    /**
                     * @description Before (inherent) or after (residual) controls
                     * @enum {unknown}
                     */
                    rating_type: "inherent" | "residual";
                };
            };
        };
        responses: {
            /** @description Created: record a rating of a scenario of a BRA */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "rating_type": "inherent",
                     *         "impact_score": 1,
                     *         "likelihood_score": 1,
                     *         "risk_score": 1,
                     *         "risk_level": "Low",
                     *         "justification": "justification",
                     *         "created_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "superseded_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: uuid
                             * @description The scenario link rated
                             */
                            bra_risk_scenario_id: string;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            /** Format: uuid */
                            id: string;
                            impact_score: number;
                            justification: string | null;
                            likelihood_score: number;
                            /**
                             * @description Before (inherent) or after (residual) controls
                             * @enum {unknown}
                             */
                            rating_type: "inherent" | "residual";
                            /**
                             * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                             * @enum {unknown}
                             */
                            risk_level: "Low" | "Medium" | "High" | "Very High";
                            /** @description impact × likelihood (D6.1) */
                            risk_score: number;
                            superseded_at: string | null;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.return": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "comment": "comment"
                 *     }
                 */
                "application/json": {
                    comment?: string | null;
                };
            };
        };
        responses: {
            /** @description Success: return a BRA to the assessor */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "draft",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.scenario.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a BRA's scenarios */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "name": "Northwind Trading Ltd",
                     *           "category": "External fraud",
                     *           "included": true,
                     *           "inherent_rating": {
                     *             "impact_score": 1,
                     *             "likelihood_score": 1,
                     *             "risk_score": 1,
                     *             "risk_level": "Low"
                     *           },
                     *           "residual_rating": {
                     *             "impact_score": 1,
                     *             "likelihood_score": 1,
                     *             "risk_score": 1,
                     *             "risk_level": "Low"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Category of the catalogue scenario */
                            category: string;
                            /**
                             * Format: uuid
                             * @description The scenario link (what ratings and mitigation actions refer to)
                             */
                            id: string;
                            /** @description Excluded scenarios need no ratings and are not counted in the summary */
                            included: boolean;
                            inherent_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /** @description Name of the catalogue scenario */
                            name: string;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /**
                             * Format: uuid
                             * @description The catalogue scenario
                             */
                            risk_scenario_id: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.scenario.add": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "risk_scenario_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "included": true
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Whether the scenario is assessed (default true)
                     * @default true
                     */
                    included?: boolean;
                    /**
                     * Format: uuid
                     * @description A scenario of the enterprise catalogue, not yet in this BRA
                     */
                    risk_scenario_id: string;
                };
            };
        };
        responses: {
            /** @description Created: add a catalogue scenario to a BRA */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "category": "External fraud",
                     *         "included": true,
                     *         "inherent_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low"
                     *         },
                     *         "residual_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Category of the catalogue scenario */
                            category: string;
                            /**
                             * Format: uuid
                             * @description The scenario link (what ratings and mitigation actions refer to)
                             */
                            id: string;
                            /** @description Excluded scenarios need no ratings and are not counted in the summary */
                            included: boolean;
                            inherent_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /** @description Name of the catalogue scenario */
                            name: string;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /**
                             * Format: uuid
                             * @description The catalogue scenario
                             */
                            risk_scenario_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.scenario.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
                /** @description The scenario link of that BRA */
                link_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "included": true
                 *     }
                 */
                "application/json": {
                    /** @description Excluded scenarios need no ratings for approval */
                    included: boolean;
                };
            };
        };
        responses: {
            /** @description Success: include or exclude a scenario of a BRA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "category": "External fraud",
                     *         "included": true,
                     *         "inherent_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low"
                     *         },
                     *         "residual_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Category of the catalogue scenario */
                            category: string;
                            /**
                             * Format: uuid
                             * @description The scenario link (what ratings and mitigation actions refer to)
                             */
                            id: string;
                            /** @description Excluded scenarios need no ratings and are not counted in the summary */
                            included: boolean;
                            inherent_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /** @description Name of the catalogue scenario */
                            name: string;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                /** @description Likelihood, 1 to 5 */
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                /** @description impact × likelihood */
                                risk_score: number;
                            } | null;
                            /**
                             * Format: uuid
                             * @description The catalogue scenario
                             */
                            risk_scenario_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.snapshot.list": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a BRA's snapshots */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "kind": "created",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "created_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description Taken at creation or at approval
                             * @enum {unknown}
                             */
                            kind: "created" | "approved";
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.snapshot.get": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
                /** @description A snapshot of that BRA */
                snapshot_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: get a snapshot of a BRA */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "kind": "created",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "created_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "content": {
                     *           "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "status": "draft",
                     *           "period": "period",
                     *           "assessor": "assessor",
                     *           "start_date": "2026-03-31",
                     *           "completion_date": "2026-03-31",
                     *           "created_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "legal_entity": {
                     *             "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "business_unit": {
                     *             "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "approved_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "approved_at": "2026-03-02T09:30:00.000Z",
                     *           "final_comment": "final comment",
                     *           "snapshot_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "cancelled_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "cancelled_at": "2026-03-02T09:30:00.000Z",
                     *           "cancellation_reason": "cancellation reason",
                     *           "scenarios": [
                     *             {
                     *               "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *               "risk_scenario_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *               "name": "Northwind Trading Ltd",
                     *               "category": "External fraud",
                     *               "included": true,
                     *               "inherent_rating": {
                     *                 "impact_score": 1,
                     *                 "likelihood_score": 1,
                     *                 "risk_score": 1,
                     *                 "risk_level": "Low"
                     *               },
                     *               "residual_rating": {
                     *                 "impact_score": 1,
                     *                 "likelihood_score": 1,
                     *                 "risk_score": 1,
                     *                 "risk_level": "Low"
                     *               }
                     *             }
                     *           ],
                     *           "controls": [
                     *             {
                     *               "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *               "key_control_name": "key control name",
                     *               "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *               "sub_control_name": "sub control name",
                     *               "tod": "tod",
                     *               "toe": "toe",
                     *               "total_effectiveness": "total effectiveness"
                     *             }
                     *           ],
                     *           "summary": {
                     *             "total_scenarios": 1,
                     *             "assessed_scenarios": 1,
                     *             "risks_above_appetite": 1,
                     *             "completion_percentage": 1
                     *           }
                     *         },
                     *         "methodology": {
                     *           "risk_bands": [
                     *             {
                     *               "level": "Low",
                     *               "min": 1,
                     *               "max": 1
                     *             }
                     *           ],
                     *           "appetite": {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "risk_level": "Low",
                     *             "threshold_value": 1,
                     *             "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432"
                     *           }
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            content: {
                                approved_at: string | null;
                                approved_by: string | null;
                                /** @description Name of the assessor */
                                assessor: string;
                                business_unit: {
                                    /**
                                     * Format: uuid
                                     * @description The business unit
                                     */
                                    id: string;
                                    /** @description Name of the business unit */
                                    name: string;
                                } | null;
                                business_unit_id: string | null;
                                cancellation_reason: string | null;
                                cancelled_at: string | null;
                                cancelled_by: string | null;
                                completion_date: string | null;
                                /** @description Newest first */
                                controls: {
                                    /**
                                     * Format: uuid
                                     * @description The control link
                                     */
                                    id: string;
                                    /** Format: uuid */
                                    key_control_id: string;
                                    key_control_name: string;
                                    /** Format: uuid */
                                    sub_control_id: string;
                                    sub_control_name: string;
                                    tod: string | null;
                                    toe: string | null;
                                    total_effectiveness: string | null;
                                }[];
                                /** Format: date-time */
                                created_at: string;
                                created_by: string | null;
                                description: string | null;
                                final_comment: string | null;
                                /** Format: uuid */
                                id: string;
                                legal_entity: {
                                    /**
                                     * Format: uuid
                                     * @description The legal entity
                                     */
                                    id: string;
                                    /** @description Name of the legal entity */
                                    name: string;
                                };
                                /**
                                 * Format: uuid
                                 * @description The legal entity assessed; immutable
                                 */
                                legal_entity_id: string;
                                /** @description Unique within the enterprise (case-insensitive) */
                                name: string;
                                /** @description Free-text label of the assessment period */
                                period: string;
                                /** @description Newest first */
                                scenarios: {
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    /**
                                     * Format: uuid
                                     * @description The scenario link (what ratings and mitigation actions refer to)
                                     */
                                    id: string;
                                    /** @description Excluded scenarios need no ratings and are not counted in the summary */
                                    included: boolean;
                                    inherent_rating: {
                                        /** @description Impact, 1 to 5 */
                                        impact_score: number;
                                        /** @description Likelihood, 1 to 5 */
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        /** @description impact × likelihood */
                                        risk_score: number;
                                    } | null;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    residual_rating: {
                                        /** @description Impact, 1 to 5 */
                                        impact_score: number;
                                        /** @description Likelihood, 1 to 5 */
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        /** @description impact × likelihood */
                                        risk_score: number;
                                    } | null;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario
                                     */
                                    risk_scenario_id: string;
                                }[];
                                snapshot_id: string | null;
                                start_date: string | null;
                                /**
                                 * @description Where the BRA is in its life (3.1, D6.7)
                                 * @enum {unknown}
                                 */
                                status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                                summary: {
                                    /** @description Included scenarios with both an inherent and a residual rating */
                                    assessed_scenarios: number;
                                    /** @description round(100 × assessed / total); 0 when total is 0 */
                                    completion_percentage: number;
                                    /** @description Included scenarios whose residual risk score exceeds the threshold of the BRA's applicable appetite (D6.9) */
                                    risks_above_appetite: number;
                                    /** @description Included scenarios */
                                    total_scenarios: number;
                                };
                                /**
                                 * Format: date-time
                                 * @description Last change of the BRA or of its scenarios, ratings or control links
                                 */
                                updated_at: string;
                            };
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description Taken at creation or at approval
                             * @enum {unknown}
                             */
                            kind: "created" | "approved";
                            /** @description What the summary was computed under, pinned with the snapshot */
                            methodology: {
                                appetite: {
                                    business_unit_id: string | null;
                                    /**
                                     * Format: uuid
                                     * @description The appetite record (it may have changed or been deleted since)
                                     */
                                    id: string;
                                    legal_entity_id: string | null;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    /** @description The threshold risks_above_appetite was counted against */
                                    threshold_value: number;
                                } | null;
                                /** @description The score bands of D6.1 the ratings were levelled with */
                                risk_bands: {
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    level: "Low" | "Medium" | "High" | "Very High";
                                    max: number;
                                    min: number;
                                }[];
                            };
                        };
                        /** @description Human-readable success text */
                        message?: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.submit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The BRA */
                bra_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /** @example {} */
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Success: submit a BRA for review */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "status": "draft",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description Where the BRA is in its life (3.1, D6.7)
                             * @enum {unknown}
                             */
                            status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.effectiveness": {
        parameters: {
            query?: {
                /** @description true also counts archived sub-controls */
                archived?: boolean;
                /** @description Only sub-controls linked to BRAs of this business unit (D7.1) */
                business_unit_id?: string;
                /** @description Only sub-controls linked to BRAs of this legal entity (D7.1) */
                legal_entity_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: effectiveness summary of the sub-controls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "highly_effective": 0,
                     *         "effective": 0,
                     *         "moderately_effective": 0,
                     *         "less_effective": 0,
                     *         "not_effective": 0,
                     *         "not_assessed": 0,
                     *         "total": 0
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Sub-controls rated Effective */
                            effective: number;
                            /** @description Sub-controls rated Highly Effective */
                            highly_effective: number;
                            /** @description Sub-controls rated Less Effective */
                            less_effective: number;
                            /** @description Sub-controls rated Moderately Effective */
                            moderately_effective: number;
                            /** @description Sub-controls whose ToD or ToE is unset (D7.1) */
                            not_assessed: number;
                            /** @description Sub-controls rated Not Effective */
                            not_effective: number;
                            /** @description Every sub-control in scope */
                            total: number;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.heat_map": {
        parameters: {
            query?: {
                /** @description true also counts archived sub-controls */
                archived?: boolean;
                /** @description Only sub-controls linked to BRAs of this business unit (D7.1) */
                business_unit_id?: string;
                /** @description Only sub-controls linked to BRAs of this legal entity (D7.1) */
                legal_entity_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: heat map of sub-controls by ToD and ToE */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "tod_levels": [
                     *           "tod levels"
                     *         ],
                     *         "toe_levels": [
                     *           "toe levels"
                     *         ],
                     *         "data": {
                     *           "A": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             }
                     *           },
                     *           "B": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             }
                     *           },
                     *           "C": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             }
                     *           },
                     *           "D": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             }
                     *           },
                     *           "E": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective"
                     *             }
                     *           }
                     *         },
                     *         "total_assessed": 0
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Keyed by ToD, then by ToE: all 25 cells, zeros included (D7.1) */
                            data: {
                                A: {
                                    1: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                };
                                B: {
                                    1: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                };
                                C: {
                                    1: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                };
                                D: {
                                    1: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                };
                                E: {
                                    1: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                    };
                                };
                            };
                            /** @description A to E */
                            tod_levels: string[];
                            /** @description 1 to 5 */
                            toe_levels: string[];
                            /** @description Sub-controls with both ToD and ToE set */
                            total_assessed: number;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.key_control.list": {
        parameters: {
            query?: {
                /** @description true also lists archived items; false (default) lists only active ones */
                archived?: boolean;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list key controls with their sub-controls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "archived": true,
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "sub_controls": [
                     *             {
                     *               "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "name": "Northwind Trading Ltd",
                     *               "tod": "A",
                     *               "toe": "1",
                     *               "total_effectiveness": "Highly Effective",
                     *               "archived": true
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the key control */
                            name: string;
                            /** @description Its sub-controls, newest first; archived ones only with archived=true */
                            sub_controls: {
                                /** @description Listed only with archived=true */
                                archived: boolean;
                                /** Format: uuid */
                                id: string;
                                name: string;
                                tod: ("A" | "B" | "C" | "D" | "E") | null;
                                toe: ("1" | "2" | "3" | "4" | "5") | null;
                                total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            }[];
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                        /** @description Human-readable success text */
                        message?: string;
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.key_control.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two."
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description Name of the key control; at most 200 characters */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created: create a key control */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "archived": true,
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the key control */
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.key_control.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_control_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two."
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description New name; at most 200 characters */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success: rename or describe a key control */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "archived": true,
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the key control */
                            name: string;
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.key_control.archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_control_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a key control and its sub-controls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.sub_control.list": {
        parameters: {
            query?: {
                /** @description true also lists archived items; false (default) lists only active ones */
                archived?: boolean;
                /** @description Only the sub-controls of this key control */
                key_control_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list sub-controls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "tod": "A",
                     *           "toe": "1",
                     *           "total_effectiveness": "Highly Effective",
                     *           "testing_date": "2026-03-31",
                     *           "tested_by": "tested by",
                     *           "evidence_notes": "evidence notes",
                     *           "tod_justification": "tod justification",
                     *           "toe_justification": "toe justification",
                     *           "archived": true,
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            evidence_notes: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description Parent key control
                             */
                            key_control_id: string;
                            name: string;
                            tested_by: string | null;
                            testing_date: string | null;
                            tod: ("A" | "B" | "C" | "D" | "E") | null;
                            tod_justification: string | null;
                            toe: ("1" | "2" | "3" | "4" | "5") | null;
                            toe_justification: string | null;
                            total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.sub_control.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description total_effectiveness is computed, never sent (422) */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "key_control_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "name": "Northwind Trading Ltd",
                 *       "description": "What this is about, in a sentence or two.",
                 *       "tod": "A",
                 *       "toe": "1"
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /**
                     * Format: uuid
                     * @description Parent key control (not archived)
                     */
                    key_control_id: string;
                    /** @description Name of the sub-control; at most 200 characters */
                    name: string;
                    tod?: ("A" | "B" | "C" | "D" | "E") | null;
                    toe?: ("1" | "2" | "3" | "4" | "5") | null;
                };
            };
        };
        responses: {
            /** @description Created: create a sub-control */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "tod": "A",
                     *         "toe": "1",
                     *         "total_effectiveness": "Highly Effective",
                     *         "testing_date": "2026-03-31",
                     *         "tested_by": "tested by",
                     *         "evidence_notes": "evidence notes",
                     *         "tod_justification": "tod justification",
                     *         "toe_justification": "toe justification",
                     *         "archived": true,
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            evidence_notes: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description Parent key control
                             */
                            key_control_id: string;
                            name: string;
                            tested_by: string | null;
                            testing_date: string | null;
                            tod: ("A" | "B" | "C" | "D" | "E") | null;
                            tod_justification: string | null;
                            toe: ("1" | "2" | "3" | "4" | "5") | null;
                            toe_justification: string | null;
                            total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.sub_control.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sub_control_id: string;
            };
            cookie?: never;
        };
        /** @description Test results; total_effectiveness is computed, never sent (422) */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tod": "A",
                 *       "toe": "1",
                 *       "testing_date": "2026-03-31",
                 *       "tested_by": "tested by",
                 *       "evidence_notes": "evidence notes",
                 *       "tod_justification": "tod justification",
                 *       "toe_justification": "toe justification"
                 *     }
                 */
                "application/json": {
                    evidence_notes?: string | null;
                    tested_by?: string | null;
                    testing_date?: string | null;
                    tod?: ("A" | "B" | "C" | "D" | "E") | null;
                    tod_justification?: string | null;
                    toe?: ("1" | "2" | "3" | "4" | "5") | null;
                    toe_justification?: string | null;
                };
            };
        };
        responses: {
            /** @description Success: record test results of a sub-control */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "tod": "A",
                     *         "toe": "1",
                     *         "total_effectiveness": "Highly Effective",
                     *         "testing_date": "2026-03-31",
                     *         "tested_by": "tested by",
                     *         "evidence_notes": "evidence notes",
                     *         "tod_justification": "tod justification",
                     *         "toe_justification": "toe justification",
                     *         "archived": true,
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived: boolean;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            evidence_notes: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: uuid
                             * @description Parent key control
                             */
                            key_control_id: string;
                            name: string;
                            tested_by: string | null;
                            testing_date: string | null;
                            tod: ("A" | "B" | "C" | "D" | "E") | null;
                            tod_justification: string | null;
                            toe: ("1" | "2" | "3" | "4" | "5") | null;
                            toe_justification: string | null;
                            total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.sub_control.archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sub_control_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a sub-control */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "governance.risk_appetite.list": {
        parameters: {
            query?: {
                /** @description Only the record of this business unit */
                business_unit_id?: string;
                /** @description Only records of this legal entity (its entity-level and unit-level overrides) */
                legal_entity_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list risk appetites */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "risk_level": "Low",
                     *           "threshold_value": 1,
                     *           "description": "What this is about, in a sentence or two.",
                     *           "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity_id: string | null;
                            /**
                             * @description Risk level of the appetite
                             * @enum {unknown}
                             */
                            risk_level: "Low" | "Medium" | "High" | "Very High";
                            /** @description Maximum acceptable risk score, 1 to 25 */
                            threshold_value: number;
                            /** Format: date-time */
                            updated_at: string;
                            updated_by: string | null;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "governance.risk_appetite.upsert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "risk_level": "Low",
                 *       "threshold_value": 1,
                 *       "description": "What this is about, in a sentence or two.",
                 *       "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                 *       "reason": "reason"
                 *     }
                 */
                "application/json": {
                    business_unit_id?: string | null;
                    description?: string | null;
                    legal_entity_id?: string | null;
                    reason?: string | null;
                    /**
                     * @description Risk level of the appetite
                     * @enum {unknown}
                     */
                    risk_level: "Low" | "Medium" | "High" | "Very High";
                    /** @description Maximum acceptable risk score, 1 to 25 */
                    threshold_value: number;
                };
            };
        };
        responses: {
            /** @description The record was updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "risk_level": "Low",
                     *         "threshold_value": 1,
                     *         "description": "What this is about, in a sentence or two.",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity_id: string | null;
                            /**
                             * @description Risk level of the appetite
                             * @enum {unknown}
                             */
                            risk_level: "Low" | "Medium" | "High" | "Very High";
                            /** @description Maximum acceptable risk score, 1 to 25 */
                            threshold_value: number;
                            /** Format: date-time */
                            updated_at: string;
                            updated_by: string | null;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description The record was created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "risk_level": "Low",
                     *         "threshold_value": 1,
                     *         "description": "What this is about, in a sentence or two.",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity_id: string | null;
                            /**
                             * @description Risk level of the appetite
                             * @enum {unknown}
                             */
                            risk_level: "Low" | "Medium" | "High" | "Very High";
                            /** @description Maximum acceptable risk score, 1 to 25 */
                            threshold_value: number;
                            /** Format: date-time */
                            updated_at: string;
                            updated_by: string | null;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "governance.risk_appetite.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                risk_appetite_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: delete a risk appetite override */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "governance.risk_appetite.history": {
        parameters: {
            query?: {
                /** @description Only changes of records of this legal entity */
                legal_entity_id?: string;
                /** @description Only changes of this record */
                risk_appetite_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list the risk appetite change history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "risk_appetite_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "previous_level": "Low",
                     *           "new_level": "Low",
                     *           "previous_threshold": 1,
                     *           "new_threshold": 1,
                     *           "changed_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "changed_at": "2026-03-02T09:30:00.000Z",
                     *           "reason": "reason"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            business_unit_id: string | null;
                            /**
                             * Format: date-time
                             * @description When the change was made
                             */
                            changed_at: string;
                            changed_by: string | null;
                            /** Format: uuid */
                            id: string;
                            legal_entity_id: string | null;
                            new_level: ("Low" | "Medium" | "High" | "Very High") | null;
                            new_threshold: number | null;
                            previous_level: ("Low" | "Medium" | "High" | "Very High") | null;
                            previous_threshold: number | null;
                            reason: string | null;
                            /**
                             * Format: uuid
                             * @description The record changed (kept after an override is deleted)
                             */
                            risk_appetite_id: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "legal_entities.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list legal entities with their business units */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "business_units": [
                     *             {
                     *               "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "name": "Northwind Trading Ltd"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Its business units, newest first. An assessor or reviewer assigned to particular units sees only those. */
                            business_units: {
                                /** Format: uuid */
                                id: string;
                                /** @description Name of the business unit */
                                name: string;
                            }[];
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the legal entity, unique in the enterprise (case-insensitive) */
                            name: string;
                        }[];
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "me.get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the authenticated caller */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "user_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "email": "alex.morgan@example.com",
                     *         "full_name": "Alex Morgan",
                     *         "role": "super_admin",
                     *         "enterprise_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "enterprise_name": "Northwind Group",
                     *         "entity_assignments": [
                     *           {
                     *             "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "name": "Northwind Trading Ltd",
                     *             "business_unit_name": "Retail Banking"
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            email: string;
                            enterprise_id: string | null;
                            enterprise_name: string | null;
                            entity_assignments: {
                                business_unit_id: string | null;
                                business_unit_name: string | null;
                                /** Format: uuid */
                                legal_entity_id: string;
                                /** @description Name of the legal entity */
                                name: string;
                            }[];
                            full_name: string;
                            role: "super_admin" | "admin" | "assessor" | "reviewer";
                            /** Format: uuid */
                            user_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "actions.list": {
        parameters: {
            query?: {
                /** @description true: archived actions are listed too; false (default): they are left out */
                archived?: boolean;
                /** @description Only actions of this BRA */
                bra_id?: string;
                /** @description true: only overdue actions (D7.3); false or absent: no filter on overdue */
                overdue_only?: boolean;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description How urgent the action is */
                priority?: "low" | "medium" | "high" | "critical";
                /** @description created, in_progress or completed; every move between them is allowed (D7.3) */
                status?: "created" | "in_progress" | "completed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list mitigation actions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "action": "action",
                     *           "owner": "owner",
                     *           "status": "created",
                     *           "priority": "low",
                     *           "action_type": "action type",
                     *           "due_date": "2026-03-31",
                     *           "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "bra_risk_scenario_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "is_overdue": true,
                     *           "archived": true,
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "bra": {
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "risk_scenario": {
                     *             "name": "Northwind Trading Ltd"
                     *           }
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Description of the action */
                            action: string;
                            /** @description Category (free text) */
                            action_type: string;
                            /** @description Set by archiving; archived actions are listed only with archived=true */
                            archived: boolean;
                            bra: {
                                /** @description The BRA's name */
                                name: string;
                            } | null;
                            bra_id: string | null;
                            bra_risk_scenario_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: date
                             * @description When the action is due
                             */
                            due_date: string;
                            /** Format: uuid */
                            id: string;
                            /** @description due_date before today (UTC) and status not completed (D7.3); computed at every read, never stored */
                            is_overdue: boolean;
                            /** @description Responsible person or team */
                            owner: string;
                            /**
                             * @description How urgent the action is
                             * @enum {unknown}
                             */
                            priority: "low" | "medium" | "high" | "critical";
                            risk_scenario: {
                                /** @description The catalogue scenario's name */
                                name: string;
                            } | null;
                            /**
                             * @description created, in_progress or completed; every move between them is allowed (D7.3)
                             * @enum {unknown}
                             */
                            status: "created" | "in_progress" | "completed";
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                        /** @description Human-readable success text */
                        message?: string;
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "actions.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "action",
                 *       "owner": "owner",
                 *       "priority": "low",
                 *       "action_type": "action type",
                 *       "due_date": "2026-03-31",
                 *       "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                 *       "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21"
                 *     }
                 */
                "application/json": {
                    /** @description Description of the action; at most 5,000 characters */
                    action: string;
                    /** @description Category of the action (free text); at most 200 characters */
                    action_type: string;
                    bra_id?: string | null;
                    bra_risk_scenario_id?: string | null;
                    /**
                     * Format: date
                     * @description When the action is due (YYYY-MM-DD); overdue from the next day (UTC) until completed
                     */
                    due_date: string;
                    /** @description Responsible person or team; at most 200 characters */
                    owner: string;
                    /**
                     * @description How urgent the action is
                     * @enum {unknown}
                     */
                    priority: "low" | "medium" | "high" | "critical";
                };
            };
        };
        responses: {
            /** @description Created: create a mitigation action */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "action": "action",
                     *         "owner": "owner",
                     *         "status": "created",
                     *         "priority": "low",
                     *         "action_type": "action type",
                     *         "due_date": "2026-03-31",
                     *         "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "bra_risk_scenario_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "is_overdue": true,
                     *         "archived": true,
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "bra": {
                     *           "name": "Northwind Trading Ltd"
                     *         },
                     *         "risk_scenario": {
                     *           "name": "Northwind Trading Ltd"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Description of the action */
                            action: string;
                            /** @description Category (free text) */
                            action_type: string;
                            /** @description Set by archiving; archived actions are listed only with archived=true */
                            archived: boolean;
                            bra: {
                                /** @description The BRA's name */
                                name: string;
                            } | null;
                            bra_id: string | null;
                            bra_risk_scenario_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: date
                             * @description When the action is due
                             */
                            due_date: string;
                            /** Format: uuid */
                            id: string;
                            /** @description due_date before today (UTC) and status not completed (D7.3); computed at every read, never stored */
                            is_overdue: boolean;
                            /** @description Responsible person or team */
                            owner: string;
                            /**
                             * @description How urgent the action is
                             * @enum {unknown}
                             */
                            priority: "low" | "medium" | "high" | "critical";
                            risk_scenario: {
                                /** @description The catalogue scenario's name */
                                name: string;
                            } | null;
                            /**
                             * @description created, in_progress or completed; every move between them is allowed (D7.3)
                             * @enum {unknown}
                             */
                            status: "created" | "in_progress" | "completed";
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "actions.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The mitigation action */
                action_id: string;
            };
            cookie?: never;
        };
        /** @description At least one field to change */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action": "action",
                 *       "owner": "owner",
                 *       "status": "created",
                 *       "priority": "low",
                 *       "action_type": "action type",
                 *       "due_date": "2026-03-31"
                 *     }
                 */
                "application/json": {
                    /** @description Description of the action; at most 5,000 characters */
                    action?: string;
                    /** @description Category of the action (free text); at most 200 characters */
                    action_type?: string;
                    /**
                     * Format: date
                     * @description When the action is due (YYYY-MM-DD); overdue from the next day (UTC) until completed
                     */
                    due_date?: string;
                    /** @description Responsible person or team; at most 200 characters */
                    owner?: string;
                    /**
                     * @description How urgent the action is
                     * @enum {unknown}
                     */
                    priority?: "low" | "medium" | "high" | "critical";
                    /**
                     * @description created, in_progress or completed; every move between them is allowed (D7.3)
                     * @enum {unknown}
                     */
                    status?: "created" | "in_progress" | "completed";
                };
            };
        };
        responses: {
            /** @description Success: change a mitigation action */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "action": "action",
                     *         "owner": "owner",
                     *         "status": "created",
                     *         "priority": "low",
                     *         "action_type": "action type",
                     *         "due_date": "2026-03-31",
                     *         "is_overdue": true,
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Description of the action; at most 5,000 characters */
                            action?: string;
                            /** @description Category of the action (free text); at most 200 characters */
                            action_type?: string;
                            /**
                             * Format: date
                             * @description When the action is due (YYYY-MM-DD); overdue from the next day (UTC) until completed
                             */
                            due_date?: string;
                            /** Format: uuid */
                            id: string;
                            /** @description After the change (D7.3) */
                            is_overdue: boolean;
                            /** @description Responsible person or team; at most 200 characters */
                            owner?: string;
                            /**
                             * @description How urgent the action is
                             * @enum {unknown}
                             */
                            priority?: "low" | "medium" | "high" | "critical";
                            /**
                             * @description created, in_progress or completed; every move between them is allowed (D7.3)
                             * @enum {unknown}
                             */
                            status?: "created" | "in_progress" | "completed";
                            /** Format: date-time */
                            updated_at: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "actions.archive": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The mitigation action */
                action_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a mitigation action */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "actions.bulk_update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "action_ids": [
                 *         "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10"
                 *       ],
                 *       "updates": {
                 *         "action": "action",
                 *         "owner": "owner",
                 *         "status": "created",
                 *         "priority": "low",
                 *         "action_type": "action type",
                 *         "due_date": "2026-03-31"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description 1 to 100 distinct action ids; all are changed or none (D7.3) */
                    action_ids: string[];
                    /** @description The fields to set on every named action (at least one) */
                    updates: {
                        /** @description Description of the action; at most 5,000 characters */
                        action?: string;
                        /** @description Category of the action (free text); at most 200 characters */
                        action_type?: string;
                        /**
                         * Format: date
                         * @description When the action is due (YYYY-MM-DD); overdue from the next day (UTC) until completed
                         */
                        due_date?: string;
                        /** @description Responsible person or team; at most 200 characters */
                        owner?: string;
                        /**
                         * @description How urgent the action is
                         * @enum {unknown}
                         */
                        priority?: "low" | "medium" | "high" | "critical";
                        /**
                         * @description created, in_progress or completed; every move between them is allowed (D7.3)
                         * @enum {unknown}
                         */
                        status?: "created" | "in_progress" | "completed";
                    };
                };
            };
        };
        responses: {
            /** @description Success: change several mitigation actions at once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "updated_count": 1,
                     *         "updated_ids": [
                     *           "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10"
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description How many actions were changed */
                            updated_count: number;
                            /** @description Their ids, in the order given */
                            updated_ids: string[];
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "risk_scenarios.list": {
        parameters: {
            query?: {
                /** @description Only scenarios of exactly this category */
                category?: string;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list the risk scenario catalogue */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "name": "Northwind Trading Ltd",
                     *           "category": "External fraud",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "created_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ],
                     *       "pagination": {
                     *         "page": 1,
                     *         "page_size": 1,
                     *         "total": 1,
                     *         "total_pages": 1,
                     *         "has_next": true,
                     *         "has_prev": true
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Category; the starter catalogue uses the seven Basel II operational-risk event types */
                            category: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the scenario, unique in the enterprise (case-insensitive) */
                            name: string;
                        }[];
                        /** @description Human-readable success text */
                        message?: string;
                        pagination: {
                            has_next: boolean;
                            has_prev: boolean;
                            page: number;
                            /** @description The page size used (after clamping) */
                            page_size: number;
                            total: number;
                            total_pages: number;
                        };
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "risk_scenarios.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "category": "External fraud",
                 *       "description": "What this is about, in a sentence or two."
                 *     }
                 */
                "application/json": {
                    /** @description Category, at most 200 characters: one of the Basel event types (e.g. 'External fraud') or the enterprise's own */
                    category: string;
                    description?: string | null;
                    /** @description Name of the scenario, unique in the enterprise (case-insensitive); at most 200 characters */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created: add a risk scenario to the catalogue */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "category": "External fraud",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Category; the starter catalogue uses the seven Basel II operational-risk event types */
                            category: string;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description Name of the scenario, unique in the enterprise (case-insensitive) */
                            name: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict with a uniqueness rule or the resource state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body without Content-Type: application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "auth.jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JSON Web Key Set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "kty",
                     *           "crv": "crv",
                     *           "x": "x",
                     *           "y": "y",
                     *           "kid": "kid",
                     *           "alg": "alg",
                     *           "use": "use"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        keys: {
                            alg: string;
                            crv: string;
                            kid: string;
                            kty: string;
                            use: string;
                            x: string;
                            y: string;
                        }[];
                    };
                };
            };
        };
    };
    "auth.admin.user.update": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user_id (UUID) */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "password": "correct-horse-battery-staple"
                 *     }
                 */
                "application/json": {
                    /** @description At least 8 characters, at most 1,024 */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description The password is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *       "aud": "authenticated",
                     *       "role": "authenticated",
                     *       "email": "alex.morgan@example.com",
                     *       "created_at": "2026-03-02T09:30:00.000Z",
                     *       "updated_at": "2026-03-02T09:30:00.000Z",
                     *       "last_sign_in_at": "2026-03-02T09:30:00.000Z",
                     *       "app_metadata": {
                     *         "provider": "provider",
                     *         "providers": [
                     *           "providers"
                     *         ]
                     *       },
                     *       "user_metadata": {
                     *         "full_name": "Alex Morgan"
                     *       }
                     *     }
                     */
                    "application/json": {
                        app_metadata: {
                            provider: string;
                            providers: string[];
                        };
                        /** @enum {string} */
                        aud: "authenticated";
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        /**
                         * Format: uuid
                         * @description The user_id
                         */
                        id: string;
                        last_sign_in_at: string | null;
                        /**
                         * @description Token role; the service role comes from its own records
                         * @enum {string}
                         */
                        role: "authenticated";
                        /** Format: date-time */
                        updated_at: string;
                        user_metadata: {
                            full_name: string;
                        };
                    };
                };
            };
            /** @description Empty or malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
            /** @description Missing or invalid apikey, or a bearer other than the service-role key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
            /** @description Unknown user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
            /** @description weak_password: under 8 characters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
        };
    };
    "auth.jwks.alias": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JSON Web Key Set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "kty",
                     *           "crv": "crv",
                     *           "x": "x",
                     *           "y": "y",
                     *           "kid": "kid",
                     *           "alg": "alg",
                     *           "use": "use"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        keys: {
                            alg: string;
                            crv: string;
                            kid: string;
                            kty: string;
                            use: string;
                            x: string;
                            y: string;
                        }[];
                    };
                };
            };
        };
    };
    "auth.logout": {
        parameters: {
            query?: {
                /** @description local (the default): this session; global: every session of the user; others: all but this one */
                scope?: "local" | "global" | "others";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown scope */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
            /** @description Missing or invalid apikey or access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
        };
    };
    "auth.token": {
        parameters: {
            query?: {
                /** @description password: sign in; refresh_token: exchange a refresh token */
                grant_type?: "password" | "refresh_token";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "alex.morgan@example.com",
                 *       "password": "correct-horse-battery-staple"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description grant_type=password (case-insensitive), at most 254 characters
                     * @example alex.morgan@example.com
                     */
                    email?: string;
                    /**
                     * @description grant_type=password
                     * @example correct-horse-battery-staple
                     */
                    password?: string;
                    /** @description grant_type=refresh_token */
                    refresh_token?: string;
                };
            };
        };
        responses: {
            /** @description Signed in: an access token and a refresh token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "eyJhbGciOiJFUzI1NiIsImtpZCI6ImFiY2QifQ.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl",
                     *       "token_type": "bearer",
                     *       "expires_in": 1,
                     *       "expires_at": 1,
                     *       "refresh_token": "v1.rt_5Jf0q9xYb3kL2mN8pR4sT6uW",
                     *       "user": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "aud": "authenticated",
                     *         "role": "authenticated",
                     *         "email": "alex.morgan@example.com",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "last_sign_in_at": "2026-03-02T09:30:00.000Z",
                     *         "app_metadata": {
                     *           "provider": "provider",
                     *           "providers": [
                     *             "providers"
                     *           ]
                     *         },
                     *         "user_metadata": {
                     *           "full_name": "Alex Morgan"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @description ES256 JWT, valid one hour */
                        access_token: string;
                        /** @description Expiry of the access token, in seconds since the epoch */
                        expires_at: number;
                        /** @description Seconds until the access token expires (3600) */
                        expires_in: number;
                        /** @description Opaque, single use, valid 7 days */
                        refresh_token: string;
                        /** @enum {string} */
                        token_type: "bearer";
                        user: {
                            app_metadata: {
                                provider: string;
                                providers: string[];
                            };
                            /** @enum {string} */
                            aud: "authenticated";
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            /**
                             * Format: uuid
                             * @description The user_id
                             */
                            id: string;
                            last_sign_in_at: string | null;
                            /**
                             * @description Token role; the service role comes from its own records
                             * @enum {string}
                             */
                            role: "authenticated";
                            /** Format: date-time */
                            updated_at: string;
                            user_metadata: {
                                full_name: string;
                            };
                        };
                    };
                };
            };
            /** @description invalid_grant, invalid_request or unsupported_grant_type */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
            /** @description Missing or invalid apikey */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
        };
    };
    "auth.user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *       "aud": "authenticated",
                     *       "role": "authenticated",
                     *       "email": "alex.morgan@example.com",
                     *       "created_at": "2026-03-02T09:30:00.000Z",
                     *       "updated_at": "2026-03-02T09:30:00.000Z",
                     *       "last_sign_in_at": "2026-03-02T09:30:00.000Z",
                     *       "app_metadata": {
                     *         "provider": "provider",
                     *         "providers": [
                     *           "providers"
                     *         ]
                     *       },
                     *       "user_metadata": {
                     *         "full_name": "Alex Morgan"
                     *       }
                     *     }
                     */
                    "application/json": {
                        app_metadata: {
                            provider: string;
                            providers: string[];
                        };
                        /** @enum {string} */
                        aud: "authenticated";
                        /** Format: date-time */
                        created_at: string;
                        email: string;
                        /**
                         * Format: uuid
                         * @description The user_id
                         */
                        id: string;
                        last_sign_in_at: string | null;
                        /**
                         * @description Token role; the service role comes from its own records
                         * @enum {string}
                         */
                        role: "authenticated";
                        /** Format: date-time */
                        updated_at: string;
                        user_metadata: {
                            full_name: string;
                        };
                    };
                };
            };
            /** @description Missing or invalid apikey or access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description OAuth-style error: invalid_grant, invalid_request, invalid_api_key, ... */
                        error: string;
                        /** @description GoTrue error code, read by @supabase/auth-js as AuthError.code */
                        error_code?: string;
                        /** @description Human-readable reason */
                        error_description: string;
                    };
                };
            };
        };
    };
    "platform.health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: service and database health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "version": "1.0.0",
                     *       "database": "ok"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        database: "ok";
                        /** @enum {string} */
                        status: "ok";
                        version: string;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        database: "unreachable";
                        /** @enum {string} */
                        status: "unavailable";
                    };
                };
            };
        };
    };
}
