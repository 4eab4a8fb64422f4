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
         * @description Super admin only. Also creates the enterprise-default risk appetite (Medium, 9) and the starter risk-scenario catalogue (D6.3, D6.9); with `starter_library: true`, the starter control library too.
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
    "/api/v1/admin/enterprises/{enterprise_id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health of an enterprise
         * @description Super admin only. The health score (0 to 100) and status computed now from weighted signals, and the daily history of the last 90 days. The `enterprise_health` alert with cause health_status is raised when the status worsens and resolved when it recovers.
         */
        get: operations["admin.enterprises.health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
         * @description Creates the user and the membership. Super admin may add any role; client admin only assessors and reviewers, in its own enterprise (4.7, D9.3). The user gets an invitation mail with a one-time link (7 days) that signs them in to set a password (PUT /auth/v1/user); `invitation` says when it was issued and when it expires. The provider admin call (PUT /auth/v1/admin/users/{user_id}) still sets a password directly.
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
    "/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}/invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend the invitation of a user
         * @description A new invitation mail with a new link; earlier links of the user stop working. Same roles as adding the user (D5): a client admin for assessors and reviewers of its enterprise. A user who has set a password already: 409 INVALID_STATE (they use password recovery).
         */
        post: operations["admin.users.invitation.resend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/enterprises/{enterprise_id}/users/{user_id}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a deactivated user
         * @description Restores the same identity, membership, role and entity assignments (and the password, if one was set). Super admin for any role; client admin of the enterprise for assessors and reviewers. 409 INVALID_STATE for an active user; 409 CONFLICT when the e-mail now belongs to another active user.
         */
        post: operations["admin.users.reactivate"];
        delete?: never;
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
    "/api/v1/admin/super-admins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the active super admins
         * @description Super admins only. Oldest first, so the bootstrap super admin leads.
         */
        get: operations["admin.super_admins.list"];
        put?: never;
        /**
         * Add a super admin
         * @description An active user of that e-mail without an enterprise membership is promoted (200; invited too if they never set a password). Otherwise a new user is created (201) and invited by mail with a one-time link to set a password. An enterprise member cannot be promoted (409 CONFLICT): super admins belong to no enterprise. Already a super admin: 409 CONFLICT. Audited in the platform trail.
         */
        post: operations["admin.super_admins.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/super-admins/{user_id}": {
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
         * Remove a super admin
         * @description The user stays, without the super admin role (their history stays too). Never the last active super admin (409 INVALID_STATE), so a super admin may remove themselves only while another one is active. Audited in the platform trail.
         */
        delete: operations["admin.super_admins.delete"];
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
         * @description Readable by client admins, and by assessors and reviewers assigned to its entity or unit (D5). An approved BRA's summary and scenario flags are those of its approval (the appetite pinned by its approval snapshot); current_appetite_breaches shows today's.
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
    "/api/v1/bras/{bra_id}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a BRA's review comments
         * @description Readable by Client admins, and assessors and reviewers assigned to the BRA (D5). Oldest first, paginated, each with its author's name.
         */
        get: operations["bras.comment.list"];
        put?: never;
        /**
         * Comment on a BRA
         * @description Client admins, and assessors and reviewers assigned to the BRA (D5). Only while the BRA is in progress or under review (else 409 INVALID_STATE). A verdict (recommend_approval, changes_requested) only from client admins and reviewers (403 for an assessor). Comments are never edited or deleted; each is audited (create of a bra_comment). A comment changes nothing else of the BRA (nor its ETag).
         */
        post: operations["bras.comment.create"];
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
         * Link a sub-control to a BRA or to one of its scenarios
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7). With bra_risk_scenario_id the control mitigates that scenario (a scenario link of another BRA: 400 INVALID_REFERENCE); without, it is linked to the whole BRA. The same sub-control twice for the same scenario (or twice BRA-wide): 409 CONFLICT.
         */
        post: operations["bras.control.link"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/controls/{link_id}": {
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
         * Remove a control link from a BRA
         * @description Client admins, or the assessor who created the BRA while still assigned (D5); only while draft or in progress (else 409 INVALID_STATE). A draft BRA moves to in_progress (D6.7). Audited as an update of the BRA. A link of another BRA or an unknown one: 404.
         */
        delete: operations["bras.control.unlink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/bras/{bra_id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed in a BRA between two snapshots
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). `from` and `to` name snapshots listed by GET /bras/{bra_id}/snapshots (`to` may be `current`, the live content); after a roll-forward that list holds the approval snapshot of the BRA it started from, so a period's changes show against the last approval. Scenarios are matched by catalogue scenario. A snapshot id not in that list (unknown, of another BRA or another enterprise): 400 INVALID_REFERENCE naming the parameter. A snapshot diffed with itself is empty.
         */
        get: operations["bras.diff"];
        put?: never;
        post?: never;
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
    "/api/v1/bras/{bra_id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A BRA's report (board pack) as PDF or XLSX
         * @description Cover (enterprise, entity, unit, period, status, assessor, approver and date, snapshot id), executive summary (counts, the scenarios above appetite), inherent and residual heat maps as coloured grids, the scenarios with ratings and justifications, the controls of each scenario with ToD, ToE and effectiveness, the mitigation actions and the final comment. An approved BRA’s report is built from its approval snapshot alone (the appetite and control results pinned there), so it comes out the same whatever changed since; any other BRA’s from its live data, marked DRAFT on every page. Every page’s footer carries the snapshot id (or the draft notice) and the page number. File name bra-report-<BRA id>.<pdf|xlsx>. Readable by whoever may read the BRA (D5); audited as an export.
         */
        get: operations["reporting.bra_report"];
        put?: never;
        post?: never;
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
    "/api/v1/bras/{bra_id}/roll-forward": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll an approved BRA forward to its next period
         * @description Client admins, and assessors assigned to its entity or unit (D5; the new BRA is theirs). Only an approved BRA (else 409 INVALID_STATE); an archived legal entity or business unit: 400 INVALID_REFERENCE naming the field, as POST /bras. Creates a `draft` BRA in the same entity and unit with the same scenarios (and included flags) and control links, no ratings: each scenario carries its residual rating in the approved BRA as `previous_residual_rating`, a reference only. The new BRA names its source in `rolled_from_bra_id`, and its snapshot list and diff accept the source’s approval snapshot. The answer is the new BRA as GET /bras/{id} gives it, with the open mitigation actions of the approved BRA to re-link. Name taken: 409 CONFLICT. Audited: the creation of the BRA and each scenario and control link added, in one transaction, with its `created` snapshot.
         */
        post: operations["bras.roll_forward"];
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
    "/api/v1/bras/{bra_id}/scenarios/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add many catalogue scenarios to a BRA
         * @description The same rules as adding one (client admins, or the assessor who created the BRA while still assigned; only while draft or in progress, else 409 INVALID_STATE; a draft moves to in_progress), for all of them or none: an id that is unknown, of another enterprise or archived is 400 INVALID_REFERENCE (details.risk_scenario_ids names them), one already in the BRA 409 CONFLICT, and then nothing is added. One audit entry per scenario added. Takes an Idempotency-Key.
         */
        post: operations["bras.scenario.bulk_add"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). Its creation and approval snapshots and, for a BRA rolled forward, the approval snapshot of the BRA it started from (with that BRA's id); newest first.
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
         * @description Readable by client admins, and by assessors and reviewers assigned to the BRA (D5). The get-BRA data as it was, and the methodology (risk bands, applicable appetite) it was computed under. Any snapshot the list gives, the inherited approval snapshot of a roll-forward included.
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
    "/api/v1/business-units/{id}": {
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
         * Rename or describe a business unit
         * @description Client admins only. An archived unit cannot be changed (409). A name taken by another active unit of its entity: 409 CONFLICT.
         */
        patch: operations["business_units.update"];
        trace?: never;
    };
    "/api/v1/business-units/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a business unit
         * @description Client admins only. As for a legal entity: gone from pickers and new BRAs, kept on old ones. 409 INVALID_STATE while a draft, in_progress or under_review BRA uses it; details.bras names them ({ id, name, status }). Also 409 for one archived already.
         */
        post: operations["business_units.archive"];
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
         * @description Every member role (D5). Without filters: the whole library. With legal_entity_id and/or business_unit_id: the sub-controls linked to BRAs of that entity or unit (D7.1); with bra_id, those linked to that BRA; an assessor or reviewer naming an entity or unit not assigned to them gets 403; an id not of the enterprise, or a unit of another entity, is 400 INVALID_REFERENCE. Archived sub-controls are left out unless archived=true.
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
    "/api/v1/controls/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the control library as a file
         * @description Every member role (D5). The active key controls with their active sub-controls and current results, streamed as CSV or XLSX (file control-library-<YYYYMMDD>.<csv|xlsx>). Columns: key_control, key_control_description, sub_control, sub_control_description, tod, toe, total_effectiveness, testing_date, tested_by, evidence_notes, tod_justification, toe_justification. One row per sub-control with its key control repeated; a row with an empty sub_control carries a key control without sub-controls. A cell a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) or starting with ' is written with one more ' in front, which the import removes.
         */
        get: operations["controls.library.export"];
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
         * @description Every member role (D5). Without filters: the whole library. With legal_entity_id and/or business_unit_id: the sub-controls linked to BRAs of that entity or unit (D7.1); with bra_id, those linked to that BRA; an assessor or reviewer naming an entity or unit not assigned to them gets 403; an id not of the enterprise, or a unit of another entity, is 400 INVALID_REFERENCE. Archived sub-controls are left out unless archived=true.
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
    "/api/v1/controls/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import the control library from a file
         * @description Client admins only (D5). Body: the file itself, text/csv (UTF-8) or an .xlsx workbook (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet; its first sheet), at most 5,000 data rows. Columns: key_control, key_control_description, sub_control, sub_control_description, tod, toe, total_effectiveness, testing_date, tested_by, evidence_notes, tod_justification, toe_justification. One row per sub-control with its key control repeated; a row with an empty sub_control carries a key control without sub-controls. A cell a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) or starting with ' is written with one more ' in front, which the import removes. Only key_control and sub_control are required columns; a column left out leaves those fields as they are, an empty cell clears them; total_effectiveness is computed from tod and toe (3.5) and its column is ignored. Active key controls are matched by exact name, sub-controls by name within their key control: matched ones are updated where they differ, the rest created. All rows or none: any refused cell gives 422 VALIDATION_ERROR naming each by row (the header is row 1) and column in details.fields (and details.rows), and nothing is written. One audit entry per created or changed record; a result that changes is appended to the test history. dry_run=true checks and counts without writing.
         */
        post: operations["controls.library.import"];
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
    "/api/v1/controls/starter-library": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Load the starter control library
         * @description Client admin only, once per enterprise (409 INVALID_STATE after). Creates at least 60 key controls across governance, access, change, operations, third parties, continuity, data protection, financial reporting, fraud and compliance, each with 2 to 4 untested sub-controls, linked to the catalogue scenarios they mitigate. No body.
         */
        post: operations["controls.starter_library.load"];
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
         * @description Every member role (D5); newest first; archived ones only with archived=true. A key_control_id that is not of the enterprise is 400 INVALID_REFERENCE. The drill-down filters list exactly what a heat-map cell (its `filter`) or an effectiveness count covers: tod and toe, total_effectiveness, not_assessed, and the scope filters legal_entity_id, business_unit_id and bra_id with the same rules as the effectiveness summary (an id not of the enterprise is 400 INVALID_REFERENCE; an entity, unit or BRA not assigned to an assessor or reviewer is 403).
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
        /**
         * Get a sub-control with its previous result
         * @description Every member role (D5). The current result, the latest record of its test history (latest_test) and the one before it (previous_result: null until two results were entered), so a retest shows what it replaced.
         */
        get: operations["controls.sub_control.get"];
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
    "/api/v1/controls/sub-controls/{sub_control_id}/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a sub-control's test history
         * @description Every member role (D5). Newest first, paginated: every complete test, every PATCH that changed tod, toe or testing_date, and the result a sub-control was created with.
         */
        get: operations["controls.sub_control.test.list"];
        put?: never;
        /**
         * Record a complete test of a sub-control
         * @description Client admins and assessors (D5). The test becomes the sub-control's current result (total_effectiveness recomputed from the 3.5 matrix; the justifications it leaves out are cleared) and is appended to its history, which cannot be changed. An archived sub-control is 409 INVALID_STATE.
         */
        post: operations["controls.sub_control.test.record"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dashboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The risk dashboard
         * @description BRAs by status; scenarios assessed, above appetite and the share within it; the inherent and residual 5×5 heat maps, each cell with the register filter that lists it; overdue actions by priority; sub-controls by effectiveness and those untested for over 12 months; the trend of residual scores per approval period. Computed in one statement. Client admins see the whole enterprise; assessors and reviewers their assigned entities and units (D5). A filter unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403.
         */
        get: operations["reporting.dashboard"];
        put?: never;
        post?: never;
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
    "/api/v1/legal-entities/{id}": {
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
         * Rename or describe a legal entity
         * @description Client admins only. An archived entity cannot be changed (409). A name taken by another active entity: 409 CONFLICT.
         */
        patch: operations["legal_entities.update"];
        trace?: never;
    };
    "/api/v1/legal-entities/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a legal entity (and its business units)
         * @description Client admins only. The entity and its units leave GET /legal-entities (unless include_archived=true) and cannot be used by new BRAs (400 INVALID_REFERENCE); BRAs that have them keep showing them. Its name becomes free for a new entity. 409 INVALID_STATE while a draft, in_progress or under_review BRA uses it; details.bras names them ({ id, name, status }). Also 409 for one archived already.
         */
        post: operations["legal_entities.archive"];
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
    "/api/v1/risk-register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The risk register
         * @description One row per included scenario of the newest approved BRA of each legal entity / business unit (include_live=true adds live BRAs, marked), with its current ratings, the applicable appetite threshold now, whether the residual score is above it, the weakest effectiveness of its linked controls and its open and overdue actions. risk_level filters the residual level. Client admins see the whole enterprise; assessors and reviewers their assigned entities and units (D5). A filter naming an entity or unit unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403.
         */
        get: operations["reporting.register"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/risk-register/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the risk register as CSV or XLSX
         * @description The rows of the register under the same filters and sort, all of them, streamed as a download in constant memory: CSV (RFC 4180, UTF-8) or XLSX (one sheet, written as it streams). Columns: legal_entity, business_unit, bra_id, bra_name, bra_period, bra_status, bra_approved_at, live, scenario_id, scenario_name, category, inherent_impact, inherent_likelihood, inherent_score, inherent_level, residual_impact, residual_likelihood, residual_score, residual_level, appetite_threshold, above_appetite, control_effectiveness, open_actions, overdue_actions. Text a spreadsheet would read as a formula (starting with =, +, -, @, tab or CR) is prefixed with '. File name risk-register-<YYYYMMDD>.<csv|xlsx>. Audited as an export. Client admins see the whole enterprise; assessors and reviewers their assigned entities and units (D5). A filter naming an entity or unit unknown in the enterprise is 400 INVALID_REFERENCE, one not assigned to the caller 403.
         */
        get: operations["reporting.register.export"];
        put?: never;
        post?: never;
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
    "/api/v1/risk-scenarios/{id}": {
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
         * Change a risk scenario of the catalogue
         * @description Client admins only. BRAs that use the scenario show the new name; their snapshots keep the name they had. An archived scenario cannot be changed (409 INVALID_STATE); a name taken by another active scenario: 409 CONFLICT.
         */
        patch: operations["risk_scenarios.update"];
        trace?: never;
    };
    "/api/v1/risk-scenarios/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a risk scenario
         * @description Client admins only. The scenario leaves the catalogue list (unless include_archived=true) and cannot be added to a BRA (400 INVALID_REFERENCE); BRAs that have it keep it, and its name is free for a new scenario. Archived already: 409 INVALID_STATE.
         */
        post: operations["risk_scenarios.archive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/risk-scenarios/{id}/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A scenario's ratings across approved BRAs
         * @description The inherent and residual rating (score and level, with impact and likelihood) of one catalogue scenario in each approved BRA the caller sees, by approval date: client admins the whole enterprise, assessors and reviewers their assigned entities and units (D5, in SQL). Read from the approved BRAs’ rows, which cannot change after approval and so equal their approval snapshots. Excluded scenarios are left out. An unknown scenario, or another enterprise's: 404.
         */
        get: operations["reporting.scenario_trend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The enterprise's endpoints, newest first (secrets are never listed). Client admin of the enterprise.
         */
        get: operations["webhooks.list"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Events of the types named are POSTed to the URL, signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer carries the signing secret: it is never shown again. Client admin of the enterprise.
         */
        post: operations["webhooks.create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description One endpoint, without its secret. Client admin of the enterprise.
         */
        get: operations["webhooks.get"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Removes the endpoint and its deliveries; nothing more is sent to it. Client admin of the enterprise.
         */
        delete: operations["webhooks.delete"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Change its URL, event types or description, or disable and enable it. Enabling clears the failure state. Client admin of the enterprise.
         */
        patch: operations["webhooks.update"];
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook endpoint
         * @description Every event queued for the endpoint, newest first, with its attempts and their outcome. Client admin of the enterprise.
         */
        get: operations["webhooks.deliveries.list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description Queues the delivery again now, with a fresh 24 hours of retries (the same event id, so receivers can drop a duplicate). The endpoint must be enabled (409 otherwise). Client admin of the enterprise.
         */
        post: operations["webhooks.deliveries.retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret of a webhook endpoint
         * @description A new secret, shown only here. For 24 hours deliveries carry two signatures (the new and the old secret), so the receiver can switch without losing events. Client admin of the enterprise.
         */
        post: operations["webhooks.rotate_secret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to a webhook endpoint
         * @description Queues a `webhook.test` event for this endpoint alone, whatever its event types; the delivery shows how it went. Client admin of the enterprise.
         */
        post: operations["webhooks.test"];
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
    "/auth/v1/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a password recovery mail (resetPasswordForEmail)
         * @description Always 200 {} for a well-formed request, whether or not the address belongs to an account: a known active user gets a mail with a one-hour link, anyone else nothing. Limited per address and per e-mail (RATE_LIMIT_RECOVERY_PER_HOUR).
         */
        post: operations["auth.recover"];
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
         * @description grant_type=password takes { email, password }; grant_type=refresh_token takes { refresh_token } and rotates it: the presented token stops working, and presenting it again revokes the whole session. A successful password sign-in sets the http-only cookie sign_in_device (path /auth/v1): a later password sign-in that presents it, or that comes from the address and user agent of a recent successful one, spends that device's own budget of attempts rather than the account's, so that others' wrong guesses do not lock its owner out.
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
        /**
         * Set your password (updateUser)
         * @description The signed-in user sets a new password, typically right after following an invitation or recovery link. Every other session of the user ends; this one stays. Passwords have at least 8 characters. E-mail changes are not offered here.
         */
        put: operations["auth.user.update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/v1/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow an invitation or recovery link (the link in the mail)
         * @description Opened by the browser from the mail, with no apikey (as Supabase Auth). A valid, unused, unexpired link signs the user in and answers 303 to redirect_to with the session in the fragment (#access_token=…&refresh_token=…&type=invite), so that the page can call PUT /auth/v1/user to set a password. A used, replaced or expired link redirects with #error=access_denied&error_code=otp_expired. redirect_to off AUTH_REDIRECT_URLS is refused with 400.
         */
        get: operations["auth.verify.link"];
        put?: never;
        /**
         * Exchange an invitation or recovery token for a session (verifyOtp)
         * @description What @supabase/auth-js's verifyOtp({ token_hash, type }) sends: token_hash is the link's token. One use; answers the session as the password grant does. A used, replaced or expired token: 403 otp_expired, and nothing changes.
         */
        post: operations["auth.verify"];
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
                     *           "health_score": 0,
                     *           "health_status": "healthy",
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
                            /** @description Health score now, 0 to 100 (GET /admin/enterprises/{id}/health gives its signals) */
                            health_score: number;
                            /**
                             * @description healthy (score 75 and above), at_risk (50 to 74) or critical (below 50)
                             * @enum {unknown}
                             */
                            health_status: "healthy" | "at_risk" | "critical";
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Trading Ltd",
                 *       "country": "AD",
                 *       "registration_number": "01234567",
                 *       "starter_library": false
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
                    /**
                     * @description true: the enterprise starts with the starter control library (60+ untested key controls), as POST /controls/starter-library would load it
                     * @default false
                     */
                    starter_library?: boolean;
                };
            };
        };
        responses: {
            /** @description Created: create an enterprise */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "admin.enterprises.health": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                enterprise_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: health of an enterprise */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "enterprise_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "score": 0,
                     *         "status": "healthy",
                     *         "computed_at": "2026-03-02T09:30:00.000Z",
                     *         "signals": [
                     *           {
                     *             "name": "overdue_urgent_actions",
                     *             "value": 1,
                     *             "out_of": 1,
                     *             "penalty": 1,
                     *             "max_penalty": 1,
                     *             "description": "What this is about, in a sentence or two."
                     *           }
                     *         ],
                     *         "history": [
                     *           {
                     *             "date": "2026-03-31",
                     *             "score": 0,
                     *             "status": "healthy"
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description When the score was computed (now)
                             */
                            computed_at: string;
                            /** Format: uuid */
                            enterprise_id: string;
                            /** @description The last assessment of each day over the last 90 days, oldest first (days before the first assessment are absent) */
                            history: {
                                /**
                                 * Format: date
                                 * @description UTC day
                                 */
                                date: string;
                                /** @description Health score, 0 to 100 (docs/enterprise-health.md) */
                                score: number;
                                /**
                                 * @description healthy (score 75 and above), at_risk (50 to 74) or critical (below 50)
                                 * @enum {unknown}
                                 */
                                status: "healthy" | "at_risk" | "critical";
                            }[];
                            /** @description Health score, 0 to 100 (docs/enterprise-health.md) */
                            score: number;
                            /** @description Every signal with its weight in the score */
                            signals: {
                                description: string;
                                /** @description The most it can take */
                                max_penalty: number;
                                /**
                                 * @description The signal
                                 * @enum {unknown}
                                 */
                                name: "overdue_urgent_actions" | "scenarios_above_appetite" | "bras_past_period" | "weak_sub_controls" | "failed_sign_ins";
                                out_of: number | null;
                                /** @description Points it takes off the score now */
                                penalty: number;
                                /** @description Its count now */
                                value: number;
                            }[];
                            /**
                             * @description healthy (score 75 and above), at_risk (50 to 74) or critical (below 50)
                             * @enum {unknown}
                             */
                            status: "healthy" | "at_risk" | "critical";
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
                     *           ],
                     *           "invitation": {
                     *             "sent_at": "2026-03-02T09:30:00.000Z",
                     *             "expires_at": "2026-03-02T09:30:00.000Z",
                     *             "accepted_at": "2026-03-02T09:30:00.000Z",
                     *             "delivery_status": "queued",
                     *             "delivery_attempts": 1,
                     *             "delivery_error": "delivery error",
                     *             "delivered_at": "2026-03-02T09:30:00.000Z"
                     *           }
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
                            invitation: {
                                accepted_at: string | null;
                                delivered_at: string | null;
                                /** @description Send attempts so far */
                                delivery_attempts: number;
                                delivery_error: string | null;
                                /** @description queued: not sent yet; sent: handed to the mail server (or written to DATA_DIR/mail); failed: the last attempt failed and the service keeps retrying (delivery_error says why); dropped: not sent because the link was replaced or a password was set first */
                                delivery_status: "queued" | "sent" | "failed" | "dropped";
                                /**
                                 * Format: date-time
                                 * @description When its link stops working (7 days later)
                                 */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description When the invitation was issued; its mail is sent right after, from the outbox
                                 */
                                sent_at: string;
                            } | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "5b0b6c1e-8a1f-4f7e-9a55-2f0c1d3e4b5a",
                     *         "user_id": "0e9f3c2a-1b4d-4c6e-8f7a-9b0c1d2e3f4a",
                     *         "email": "dana.lee@example.com",
                     *         "full_name": "Dana Lee",
                     *         "role": "assessor",
                     *         "created_at": "2026-11-27T09:00:00.000Z",
                     *         "invitation": {
                     *           "sent_at": "2026-11-27T09:00:00.000Z",
                     *           "expires_at": "2026-12-04T09:00:00.000Z"
                     *         }
                     *       },
                     *       "message": "User created"
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
                            /** @description The invitation mail with a one-time link to set a password */
                            invitation: {
                                /**
                                 * Format: date-time
                                 * @description When its link stops working (7 days later)
                                 */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description When the invitation was issued; its mail is sent right after, from the outbox
                                 */
                                sent_at: string;
                            };
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "admin.users.invitation.resend": {
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
            /** @description Success: resend the invitation of a user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "user_id": "0e9f3c2a-1b4d-4c6e-8f7a-9b0c1d2e3f4a",
                     *         "email": "dana.lee@example.com",
                     *         "invitation": {
                     *           "sent_at": "2026-11-28T09:00:00.000Z",
                     *           "expires_at": "2026-12-05T09:00:00.000Z"
                     *         }
                     *       },
                     *       "message": "Invitation sent"
                     *     }
                     */
                    "application/json": {
                        data: {
                            email: string;
                            /** @description The invitation mail with a one-time link to set a password */
                            invitation: {
                                /**
                                 * Format: date-time
                                 * @description When its link stops working (7 days later)
                                 */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description When the invitation was issued; its mail is sent right after, from the outbox
                                 */
                                sent_at: string;
                            };
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
    "admin.users.reactivate": {
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
            /** @description Success: reactivate a deactivated user */
            200: {
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
                     *         "entity_assignments": 1
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            email: string;
                            /** @description How many entity assignments the user has back */
                            entity_assignments: number;
                            full_name: string;
                            /**
                             * Format: uuid
                             * @description The enterprise membership (the same as before)
                             */
                            id: string;
                            /**
                             * @description The role the user had
                             * @enum {unknown}
                             */
                            role: "admin" | "assessor" | "reviewer";
                            /**
                             * Format: uuid
                             * @description The same identity as before
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "admin.super_admins.list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list the active super admins */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "user_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "email": "alex.morgan@example.com",
                     *           "full_name": "Alex Morgan",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "last_login": "2026-03-02T09:30:00.000Z",
                     *           "has_password": true
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description When the identity was created
                             */
                            created_at: string;
                            email: string;
                            full_name: string;
                            /** @description false until the invited super admin has set a password */
                            has_password: boolean;
                            last_login: string | null;
                            /**
                             * Format: uuid
                             * @description The user
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
    "admin.super_admins.create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "sam.ops@example.com",
                 *       "full_name": "Sam Ops"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: email
                     * @description E-mail address (case-insensitive)
                     */
                    email: string;
                    /** @description Full name, used when the user is new */
                    full_name: string;
                };
            };
        };
        responses: {
            /** @description An existing user promoted */
            200: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "user_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "email": "alex.morgan@example.com",
                     *         "full_name": "Alex Morgan",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "last_login": "2026-03-02T09:30:00.000Z",
                     *         "has_password": true,
                     *         "invitation": {
                     *           "sent_at": "2026-03-02T09:30:00.000Z",
                     *           "expires_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description When the identity was created
                             */
                            created_at: string;
                            email: string;
                            full_name: string;
                            /** @description false until the invited super admin has set a password */
                            has_password: boolean;
                            invitation: {
                                /**
                                 * Format: date-time
                                 * @description When its link stops working (7 days later)
                                 */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description When the invitation was issued; its mail is sent right after, from the outbox
                                 */
                                sent_at: string;
                            } | null;
                            last_login: string | null;
                            /**
                             * Format: uuid
                             * @description The user
                             */
                            user_id: string;
                        };
                        /** @description Human-readable success text */
                        message: string;
                    };
                };
            };
            /** @description A new user created and invited */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "user_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "email": "alex.morgan@example.com",
                     *         "full_name": "Alex Morgan",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "last_login": "2026-03-02T09:30:00.000Z",
                     *         "has_password": true,
                     *         "invitation": {
                     *           "sent_at": "2026-03-02T09:30:00.000Z",
                     *           "expires_at": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: date-time
                             * @description When the identity was created
                             */
                            created_at: string;
                            email: string;
                            full_name: string;
                            /** @description false until the invited super admin has set a password */
                            has_password: boolean;
                            invitation: {
                                /**
                                 * Format: date-time
                                 * @description When its link stops working (7 days later)
                                 */
                                expires_at: string;
                                /**
                                 * Format: date-time
                                 * @description When the invitation was issued; its mail is sent right after, from the outbox
                                 */
                                sent_at: string;
                            } | null;
                            last_login: string | null;
                            /**
                             * Format: uuid
                             * @description The user
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "admin.super_admins.delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The user id of the super admin */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: remove a super admin */
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
                action_type?: "create" | "update" | "delete" | "approve" | "cancel" | "login" | "logout" | "access_denied" | "export";
                /** @description Entries up to this UTC date (inclusive), YYYY-MM-DD */
                end_date?: string;
                /** @description Only entries about this record: every entry about one BRA, control, action, … */
                entity_id?: string;
                /** @description Only entries about this kind of resource */
                entity_type?: "bra" | "bra_rating" | "bra_comment" | "control" | "mitigation_action" | "legal_entity" | "business_unit" | "user" | "risk_appetite" | "risk_scenario" | "enterprise" | "system_alert" | "audit_checkpoint" | "webhook";
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
                            /** @description One of create, update, delete, approve, cancel, login, logout, access_denied, export */
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
                            /** @description true when a filter on action_type, entity_type, user_id or entity_id matches more than 10,000 entries: `total` (and `total_pages`) is then the planner's estimate, never below 10,001; `has_next` is always exact */
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: sign the head of the audit trail now */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "audit.export": {
        parameters: {
            query?: {
                /** @description Only entries of this action */
                action_type?: "create" | "update" | "delete" | "approve" | "cancel" | "login" | "logout" | "access_denied" | "export";
                /** @description Entries up to this UTC date (inclusive), YYYY-MM-DD */
                end_date?: string;
                /** @description Only entries about this record: every entry about one BRA, control, action, … */
                entity_id?: string;
                /** @description Only entries about this kind of resource */
                entity_type?: "bra" | "bra_rating" | "bra_comment" | "control" | "mitigation_action" | "legal_entity" | "business_unit" | "user" | "risk_appetite" | "risk_scenario" | "enterprise" | "system_alert" | "audit_checkpoint" | "webhook";
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
                        /** @description One of create, update, delete, approve, cancel, login, logout, access_denied, export */
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
                     *           "cancellation_reason": "cancellation reason",
                     *           "rolled_from_bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21"
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
                            rolled_from_bra_id: string | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current
                 * @example "7"
                 */
                "if-none-match"?: string;
            };
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
                    /** @description Strong entity tag of the resource's state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change */
                    etag?: string;
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
                     *         "rolled_from_bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "scenarios": [
                     *           {
                     *             "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "risk_scenario_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "name": "Northwind Trading Ltd",
                     *             "category": "External fraud",
                     *             "included": true,
                     *             "inherent_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low",
                     *               "justification": "justification"
                     *             },
                     *             "residual_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low",
                     *               "justification": "justification"
                     *             },
                     *             "previous_residual_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low"
                     *             },
                     *             "applicable_threshold": 1,
                     *             "above_appetite": true,
                     *             "controls": [
                     *               {
                     *                 "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "key_control_name": "key control name",
                     *                 "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "sub_control_name": "sub control name",
                     *                 "tod": "tod",
                     *                 "toe": "toe",
                     *                 "total_effectiveness": "total effectiveness"
                     *               }
                     *             ],
                     *             "control_effectiveness": "Highly Effective"
                     *           }
                     *         ],
                     *         "controls": [
                     *           {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "key_control_name": "key control name",
                     *             "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
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
                     *           "completion_percentage": 1,
                     *           "scenarios_above_appetite": [
                     *             {
                     *               "id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *               "risk_scenario_id": "4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b",
                     *               "name": "Card-not-present fraud",
                     *               "residual_score": 12,
                     *               "threshold": 9
                     *             }
                     *           ]
                     *         },
                     *         "created_by_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Olivia Hart"
                     *         },
                     *         "approved_by_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Olivia Hart"
                     *         },
                     *         "cancelled_by_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Olivia Hart"
                     *         },
                     *         "current_appetite_breaches": [
                     *           {
                     *             "id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *             "risk_scenario_id": "4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b",
                     *             "name": "Card-not-present fraud",
                     *             "residual_score": 12,
                     *             "threshold": 9
                     *           }
                     *         ],
                     *         "comment_count": 0,
                     *         "latest_verdicts": [
                     *           {
                     *             "author_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "author_user": {
                     *               "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *               "full_name": "Olivia Hart"
                     *             },
                     *             "verdict": "recommend_approval",
                     *             "comment_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "created_at": "2026-03-02T09:30:00.000Z"
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            approved_at: string | null;
                            approved_by: string | null;
                            approved_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
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
                            cancelled_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
                            /** @description Review comments on the BRA */
                            comment_count: number;
                            completion_date: string | null;
                            /** @description Every control link, BRA-wide and per scenario; newest first */
                            controls: {
                                bra_risk_scenario_id: string | null;
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
                            created_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
                            /** @description Approved BRAs only: the included scenarios above today's applicable appetite, while summary and the scenario flags stay as approved (under the appetite pinned by the approval snapshot) */
                            current_appetite_breaches?: {
                                /**
                                 * Format: uuid
                                 * @description The scenario link
                                 */
                                id: string;
                                /** @description Name of the catalogue scenario */
                                name: string;
                                /** @description Its current residual risk score */
                                residual_score: number;
                                /**
                                 * Format: uuid
                                 * @description The catalogue scenario
                                 */
                                risk_scenario_id: string;
                                /** @description The appetite threshold it exceeds */
                                threshold: number;
                            }[];
                            description: string | null;
                            final_comment: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description The latest verdict of each user who gave one, newest first */
                            latest_verdicts: {
                                /**
                                 * Format: uuid
                                 * @description Who gave it
                                 */
                                author_id: string;
                                /**
                                 * @description The user named by the sibling id member, with their name
                                 * @example {
                                 *       "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                                 *       "full_name": "Olivia Hart"
                                 *     }
                                 */
                                author_user: {
                                    /** @description Their full name */
                                    full_name: string;
                                    /**
                                     * Format: uuid
                                     * @description The user
                                     */
                                    id: string;
                                };
                                /**
                                 * Format: uuid
                                 * @description The comment that carries it
                                 */
                                comment_id: string;
                                /**
                                 * Format: date-time
                                 * @description When it was given
                                 */
                                created_at: string;
                                /**
                                 * @description A reviewer's opinion on the BRA as it stands
                                 * @enum {unknown}
                                 */
                                verdict: "recommend_approval" | "changes_requested";
                            }[];
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
                            rolled_from_bra_id: string | null;
                            /** @description Newest first */
                            scenarios: {
                                above_appetite: boolean | null;
                                applicable_threshold: number | null;
                                /** @description Category of the catalogue scenario */
                                category: string;
                                control_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                                /** @description The controls linked to this scenario (BRA-wide links are not repeated here), newest first */
                                controls: {
                                    bra_risk_scenario_id: string | null;
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
                                    justification: string | null;
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
                                previous_residual_rating: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                                residual_rating: {
                                    /** @description Impact, 1 to 5 */
                                    impact_score: number;
                                    justification: string | null;
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
                                /** @description The scenarios risks_above_appetite counts, by name: highest residual score first, then by name */
                                scenarios_above_appetite: {
                                    /**
                                     * Format: uuid
                                     * @description The scenario link
                                     */
                                    id: string;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    /** @description Its current residual risk score */
                                    residual_score: number;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario
                                     */
                                    risk_scenario_id: string;
                                    /** @description The appetite threshold it exceeds */
                                    threshold: number;
                                }[];
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
            /** @description Not modified: the copy named by If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "bras.comment.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
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
            /** @description Success: list a BRA's review comments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "0f3c9a7e-2b4d-4c6e-8a1f-3b5d7e9f1a2c",
                     *           "bra_id": "7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d",
                     *           "scenario_id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *           "body": "The residual likelihood of card-not-present fraud assumes the 3-D Secure rollout is complete; it is not yet in two markets.",
                     *           "verdict": "changes_requested",
                     *           "author_id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "author_user": {
                     *             "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *             "full_name": "Rafael Ortiz"
                     *           },
                     *           "created_at": "2026-06-24T09:12:00.000Z"
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
                            /**
                             * Format: uuid
                             * @description Who wrote it
                             */
                            author_id: string;
                            /**
                             * @description The user named by the sibling id member, with their name
                             * @example {
                             *       "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                             *       "full_name": "Olivia Hart"
                             *     }
                             */
                            author_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            };
                            /** @description What was said */
                            body: string;
                            /**
                             * Format: uuid
                             * @description The BRA
                             */
                            bra_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: uuid
                             * @description The comment
                             */
                            id: string;
                            scenario_id: string | null;
                            verdict: ("recommend_approval" | "changes_requested") | null;
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
    "bras.comment.create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                 *       "body": "The residual likelihood of card-not-present fraud assumes the 3-D Secure rollout is complete; it is not yet in two markets.",
                 *       "scenario_id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                 *       "verdict": "changes_requested"
                 *     }
                 */
                "application/json": {
                    /** @description The comment, 1 to 5,000 characters */
                    body: string;
                    scenario_id?: string | null;
                    verdict?: ("recommend_approval" | "changes_requested") | null;
                };
            };
        };
        responses: {
            /** @description Created: comment on a BRA */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "0f3c9a7e-2b4d-4c6e-8a1f-3b5d7e9f1a2c",
                     *         "bra_id": "7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d",
                     *         "scenario_id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *         "body": "The residual likelihood of card-not-present fraud assumes the 3-D Secure rollout is complete; it is not yet in two markets.",
                     *         "verdict": "changes_requested",
                     *         "author_id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *         "author_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Rafael Ortiz"
                     *         },
                     *         "created_at": "2026-06-24T09:12:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @example {
                         *       "id": "0f3c9a7e-2b4d-4c6e-8a1f-3b5d7e9f1a2c",
                         *       "bra_id": "7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d",
                         *       "scenario_id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                         *       "body": "The residual likelihood of card-not-present fraud assumes the 3-D Secure rollout is complete; it is not yet in two markets.",
                         *       "verdict": "changes_requested",
                         *       "author_id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                         *       "author_user": {
                         *         "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                         *         "full_name": "Rafael Ortiz"
                         *       },
                         *       "created_at": "2026-06-24T09:12:00.000Z"
                         *     }
                         */
                        data: {
                            /**
                             * Format: uuid
                             * @description Who wrote it
                             */
                            author_id: string;
                            /**
                             * @description The user named by the sibling id member, with their name
                             * @example {
                             *       "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                             *       "full_name": "Olivia Hart"
                             *     }
                             */
                            author_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            };
                            /** @description What was said */
                            body: string;
                            /**
                             * Format: uuid
                             * @description The BRA
                             */
                            bra_id: string;
                            /** Format: date-time */
                            created_at: string;
                            /**
                             * Format: uuid
                             * @description The comment
                             */
                            id: string;
                            scenario_id: string | null;
                            verdict: ("recommend_approval" | "changes_requested") | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
                     *           "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "key_control_name": "key control name",
                     *           "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
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
                            bra_risk_scenario_id: string | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                 *       "sub_control_id": "3f0b8c1e-52a4-4d7e-9b1a-0c6f2e9d4a10",
                 *       "bra_risk_scenario_id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01"
                 *     }
                 */
                "application/json": {
                    bra_risk_scenario_id?: string | null;
                    /**
                     * Format: uuid
                     * @description A sub-control of the enterprise library, not archived, not yet linked to this BRA for the same scenario
                     */
                    sub_control_id: string;
                };
            };
        };
        responses: {
            /** @description Created: link a sub-control to a BRA or to one of its scenarios */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "key_control_name": "key control name",
                     *         "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
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
                            bra_risk_scenario_id: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "bras.control.unlink": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                /** @description The BRA */
                bra_id: string;
                /** @description The control link of that BRA */
                link_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: remove a control link from a BRA */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "bras.diff": {
        parameters: {
            query: {
                /** @description A snapshot listed by GET /bras/{bra_id}/snapshots: the BRA's own, or after a roll-forward the approval snapshot it started from */
                from: string;
                /**
                 * @description Another listed snapshot, or `current`: the BRA's live content, built as a snapshot would be taken now
                 * @example current
                 */
                to: string;
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
            /** @description Success: what changed in a BRA between two snapshots */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "bra_id": "2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c",
                     *         "from": {
                     *           "kind": "approved",
                     *           "snapshot_id": "4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e",
                     *           "bra_id": "1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b",
                     *           "as_of": "2026-06-30T14:05:00.000Z"
                     *         },
                     *         "to": {
                     *           "kind": "current",
                     *           "snapshot_id": null,
                     *           "bra_id": "2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c",
                     *           "as_of": "2026-11-28T09:30:00.000Z"
                     *         },
                     *         "empty": false,
                     *         "scenarios": {
                     *           "added": [],
                     *           "removed": [],
                     *           "included": [],
                     *           "excluded": []
                     *         },
                     *         "ratings": [
                     *           {
                     *             "risk_scenario_id": "9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f",
                     *             "name": "Cyber intrusion and data theft",
                     *             "category": "External fraud",
                     *             "rating_type": "residual",
                     *             "from": {
                     *               "impact_score": 4,
                     *               "likelihood_score": 3,
                     *               "risk_score": 12,
                     *               "risk_level": "High"
                     *             },
                     *             "to": {
                     *               "impact_score": 3,
                     *               "likelihood_score": 3,
                     *               "risk_score": 9,
                     *               "risk_level": "Medium"
                     *             }
                     *           }
                     *         ],
                     *         "controls": {
                     *           "added": [],
                     *           "removed": [],
                     *           "effectiveness_changed": []
                     *         },
                     *         "summary": [
                     *           {
                     *             "field": "risks_above_appetite",
                     *             "from": 2,
                     *             "to": 1,
                     *             "delta": -1
                     *           }
                     *         ],
                     *         "methodology": {
                     *           "risk_bands": null,
                     *           "appetite": null
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description Lists are ordered by scenario name then catalogue id (ratings: inherent before residual; controls: BRA-wide first, then by scenario, key control and sub-control name)
                         * @example {
                         *       "bra_id": "2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c",
                         *       "from": {
                         *         "kind": "approved",
                         *         "snapshot_id": "4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e",
                         *         "bra_id": "1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b",
                         *         "as_of": "2026-06-30T14:05:00.000Z"
                         *       },
                         *       "to": {
                         *         "kind": "current",
                         *         "snapshot_id": null,
                         *         "bra_id": "2c9e7a41-8b3d-4f6e-a1c2-7d8e9f0a1b2c",
                         *         "as_of": "2026-11-28T09:30:00.000Z"
                         *       },
                         *       "empty": false,
                         *       "scenarios": {
                         *         "added": [],
                         *         "removed": [],
                         *         "included": [],
                         *         "excluded": []
                         *       },
                         *       "ratings": [
                         *         {
                         *           "risk_scenario_id": "9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f",
                         *           "name": "Cyber intrusion and data theft",
                         *           "category": "External fraud",
                         *           "rating_type": "residual",
                         *           "from": {
                         *             "impact_score": 4,
                         *             "likelihood_score": 3,
                         *             "risk_score": 12,
                         *             "risk_level": "High"
                         *           },
                         *           "to": {
                         *             "impact_score": 3,
                         *             "likelihood_score": 3,
                         *             "risk_score": 9,
                         *             "risk_level": "Medium"
                         *           }
                         *         }
                         *       ],
                         *       "controls": {
                         *         "added": [],
                         *         "removed": [],
                         *         "effectiveness_changed": []
                         *       },
                         *       "summary": [
                         *         {
                         *           "field": "risks_above_appetite",
                         *           "from": 2,
                         *           "to": 1,
                         *           "delta": -1
                         *         }
                         *       ],
                         *       "methodology": {
                         *         "risk_bands": null,
                         *         "appetite": null
                         *       }
                         *     }
                         */
                        data: {
                            /**
                             * Format: uuid
                             * @description The BRA asked about
                             */
                            bra_id: string;
                            controls: {
                                /** @description Control links in `to` only (matched by scenario, or BRA-wide, and sub-control) */
                                added: {
                                    /** Format: uuid */
                                    key_control_id: string;
                                    key_control_name: string;
                                    risk_scenario_id: string | null;
                                    scenario_name: string | null;
                                    /** Format: uuid */
                                    sub_control_id: string;
                                    sub_control_name: string;
                                    tod: string | null;
                                    toe: string | null;
                                    total_effectiveness: string | null;
                                }[];
                                /** @description Control links in both whose ToD, ToE or total effectiveness differ */
                                effectiveness_changed: {
                                    from: {
                                        tod: string | null;
                                        toe: string | null;
                                        total_effectiveness: string | null;
                                    };
                                    /** Format: uuid */
                                    key_control_id: string;
                                    key_control_name: string;
                                    risk_scenario_id: string | null;
                                    scenario_name: string | null;
                                    /** Format: uuid */
                                    sub_control_id: string;
                                    sub_control_name: string;
                                    to: {
                                        tod: string | null;
                                        toe: string | null;
                                        total_effectiveness: string | null;
                                    };
                                }[];
                                /** @description Control links in `from` only */
                                removed: {
                                    /** Format: uuid */
                                    key_control_id: string;
                                    key_control_name: string;
                                    risk_scenario_id: string | null;
                                    scenario_name: string | null;
                                    /** Format: uuid */
                                    sub_control_id: string;
                                    sub_control_name: string;
                                    tod: string | null;
                                    toe: string | null;
                                    total_effectiveness: string | null;
                                }[];
                            };
                            /** @description Nothing changed: every list below is empty and both methodology members are null */
                            empty: boolean;
                            from: {
                                /**
                                 * Format: date-time
                                 * @description When the snapshot was taken, or when the live content was read
                                 */
                                as_of: string;
                                /**
                                 * Format: uuid
                                 * @description The BRA the snapshot was taken of (the source BRA for the approval snapshot a roll-forward started from)
                                 */
                                bra_id: string;
                                /**
                                 * @description A creation or approval snapshot, or the live content
                                 * @enum {unknown}
                                 */
                                kind: "created" | "approved" | "current";
                                snapshot_id: string | null;
                            };
                            methodology: {
                                appetite: {
                                    from: {
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        threshold_value: number;
                                    } | null;
                                    to: {
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        threshold_value: number;
                                    } | null;
                                } | null;
                                risk_bands: {
                                    from: {
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        level: "Low" | "Medium" | "High" | "Very High";
                                        max: number;
                                        min: number;
                                    }[];
                                    to: {
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        level: "Low" | "Medium" | "High" | "Very High";
                                        max: number;
                                        min: number;
                                    }[];
                                } | null;
                            };
                            /** @description Scenarios in both whose current rating of a type changed (impact or likelihood, hence score and level; null: unrated). A new justification alone is not a change */
                            ratings: {
                                /** @description Category of the catalogue scenario */
                                category: string;
                                from: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                                /** @description Name of the catalogue scenario */
                                name: string;
                                /** @enum {unknown} */
                                rating_type: "inherent" | "residual";
                                /**
                                 * Format: uuid
                                 * @description The catalogue scenario: what scenarios are matched by, across BRAs too
                                 */
                                risk_scenario_id: string;
                                to: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                            }[];
                            scenarios: {
                                /** @description In `to`, not in `from` */
                                added: {
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    included: boolean;
                                    inherent_rating: {
                                        impact_score: number;
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        risk_score: number;
                                    } | null;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    residual_rating: {
                                        impact_score: number;
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        risk_score: number;
                                    } | null;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario: what scenarios are matched by, across BRAs too
                                     */
                                    risk_scenario_id: string;
                                }[];
                                /** @description Included in `from`, excluded in `to` */
                                excluded: {
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario: what scenarios are matched by, across BRAs too
                                     */
                                    risk_scenario_id: string;
                                }[];
                                /** @description Excluded in `from`, included in `to` */
                                included: {
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario: what scenarios are matched by, across BRAs too
                                     */
                                    risk_scenario_id: string;
                                }[];
                                /** @description In `from`, not in `to` */
                                removed: {
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    included: boolean;
                                    inherent_rating: {
                                        impact_score: number;
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        risk_score: number;
                                    } | null;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    residual_rating: {
                                        impact_score: number;
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        risk_score: number;
                                    } | null;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario: what scenarios are matched by, across BRAs too
                                     */
                                    risk_scenario_id: string;
                                }[];
                            };
                            /** @description The summary figures that differ */
                            summary: {
                                /** @description `to` − `from` */
                                delta: number;
                                /** @enum {unknown} */
                                field: "total_scenarios" | "assessed_scenarios" | "risks_above_appetite" | "completion_percentage";
                                from: number;
                                to: number;
                            }[];
                            to: {
                                /**
                                 * Format: date-time
                                 * @description When the snapshot was taken, or when the live content was read
                                 */
                                as_of: string;
                                /**
                                 * Format: uuid
                                 * @description The BRA the snapshot was taken of (the source BRA for the approval snapshot a roll-forward started from)
                                 */
                                bra_id: string;
                                /**
                                 * @description A creation or approval snapshot, or the live content
                                 * @enum {unknown}
                                 */
                                kind: "created" | "approved" | "current";
                                snapshot_id: string | null;
                            };
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
                     *           "created_by_user": {
                     *             "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *             "full_name": "Olivia Hart"
                     *           },
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
                            created_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                     *         "created_by_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Olivia Hart"
                     *         },
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
                            created_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "reporting.bra_report": {
        parameters: {
            query?: {
                /** @description pdf (default) or xlsx */
                format?: "pdf" | "xlsx";
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
            /** @description The report file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found (or in another enterprise) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": components["schemas"]["ErrorBody"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "bras.return": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "bras.roll_forward": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                 *       "name": "Retail Banking fraud risk assessment FY2027",
                 *       "period": "FY2027",
                 *       "assessor": "Daniel Okafor",
                 *       "start_date": "2027-01-04"
                 *     }
                 */
                "application/json": {
                    /** @description Name of the assessor, at most 200 characters; the approved BRA's when absent */
                    assessor?: string;
                    /** @description Name of the new BRA: unique within the enterprise (case-insensitive); at most 200 characters */
                    name: string;
                    /** @description Free-text label of the new period, at most 200 characters */
                    period: string;
                    start_date?: string | null;
                };
            };
        };
        responses: {
            /** @description Created: roll an approved BRA forward to its next period */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                     *         "rolled_from_bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "scenarios": [
                     *           {
                     *             "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "risk_scenario_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "name": "Northwind Trading Ltd",
                     *             "category": "External fraud",
                     *             "included": true,
                     *             "inherent_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low",
                     *               "justification": "justification"
                     *             },
                     *             "residual_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low",
                     *               "justification": "justification"
                     *             },
                     *             "previous_residual_rating": {
                     *               "impact_score": 1,
                     *               "likelihood_score": 1,
                     *               "risk_score": 1,
                     *               "risk_level": "Low"
                     *             },
                     *             "applicable_threshold": 1,
                     *             "above_appetite": true,
                     *             "controls": [
                     *               {
                     *                 "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "key_control_name": "key control name",
                     *                 "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "sub_control_name": "sub control name",
                     *                 "tod": "tod",
                     *                 "toe": "toe",
                     *                 "total_effectiveness": "total effectiveness"
                     *               }
                     *             ],
                     *             "control_effectiveness": "Highly Effective"
                     *           }
                     *         ],
                     *         "controls": [
                     *           {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "key_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "key_control_name": "key control name",
                     *             "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
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
                     *           "completion_percentage": 1,
                     *           "scenarios_above_appetite": [
                     *             {
                     *               "id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *               "risk_scenario_id": "4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b",
                     *               "name": "Card-not-present fraud",
                     *               "residual_score": 12,
                     *               "threshold": 9
                     *             }
                     *           ]
                     *         },
                     *         "open_actions": [
                     *           {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "action": "action",
                     *             "owner": "owner",
                     *             "status": "created",
                     *             "priority": "low",
                     *             "action_type": "action type",
                     *             "due_date": "2026-03-31",
                     *             "bra_risk_scenario_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "risk_scenario_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "new_bra_risk_scenario_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643"
                     *           }
                     *         ]
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
                            /** @description Every control link, BRA-wide and per scenario; newest first */
                            controls: {
                                bra_risk_scenario_id: string | null;
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
                            /** @description The mitigation actions of the approved BRA not completed (nor archived), oldest due first: they stay on it; listed for re-linking */
                            open_actions: {
                                action: string;
                                action_type: string;
                                bra_risk_scenario_id: string | null;
                                /** Format: date */
                                due_date: string;
                                /** Format: uuid */
                                id: string;
                                new_bra_risk_scenario_id: string | null;
                                owner: string;
                                /** @enum {unknown} */
                                priority: "low" | "medium" | "high" | "critical";
                                risk_scenario_id: string | null;
                                /** @enum {unknown} */
                                status: "created" | "in_progress" | "completed";
                            }[];
                            /** @description Free-text label of the assessment period */
                            period: string;
                            rolled_from_bra_id: string | null;
                            /** @description Newest first */
                            scenarios: {
                                above_appetite: boolean | null;
                                applicable_threshold: number | null;
                                /** @description Category of the catalogue scenario */
                                category: string;
                                control_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                                /** @description The controls linked to this scenario (BRA-wide links are not repeated here), newest first */
                                controls: {
                                    bra_risk_scenario_id: string | null;
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
                                    justification: string | null;
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
                                previous_residual_rating: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                                residual_rating: {
                                    /** @description Impact, 1 to 5 */
                                    impact_score: number;
                                    justification: string | null;
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
                                /** @description The scenarios risks_above_appetite counts, by name: highest residual score first, then by name */
                                scenarios_above_appetite: {
                                    /**
                                     * Format: uuid
                                     * @description The scenario link
                                     */
                                    id: string;
                                    /** @description Name of the catalogue scenario */
                                    name: string;
                                    /** @description Its current residual risk score */
                                    residual_score: number;
                                    /**
                                     * Format: uuid
                                     * @description The catalogue scenario
                                     */
                                    risk_scenario_id: string;
                                    /** @description The appetite threshold it exceeds */
                                    threshold: number;
                                }[];
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
                     *             "risk_level": "Low",
                     *             "justification": "justification"
                     *           },
                     *           "residual_rating": {
                     *             "impact_score": 1,
                     *             "likelihood_score": 1,
                     *             "risk_score": 1,
                     *             "risk_level": "Low",
                     *             "justification": "justification"
                     *           },
                     *           "previous_residual_rating": {
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
                                justification: string | null;
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
                            previous_residual_rating: {
                                impact_score: number;
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                risk_score: number;
                            } | null;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                justification: string | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                     *           "risk_level": "Low",
                     *           "justification": "justification"
                     *         },
                     *         "residual_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low",
                     *           "justification": "justification"
                     *         },
                     *         "previous_residual_rating": {
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
                                justification: string | null;
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
                            previous_residual_rating: {
                                impact_score: number;
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                risk_score: number;
                            } | null;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                justification: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
                     *           "risk_level": "Low",
                     *           "justification": "justification"
                     *         },
                     *         "residual_rating": {
                     *           "impact_score": 1,
                     *           "likelihood_score": 1,
                     *           "risk_score": 1,
                     *           "risk_level": "Low",
                     *           "justification": "justification"
                     *         },
                     *         "previous_residual_rating": {
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
                                justification: string | null;
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
                            previous_residual_rating: {
                                impact_score: number;
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                risk_score: number;
                            } | null;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                justification: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "bras.scenario.bulk_add": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                 *       "risk_scenario_ids": [
                 *         "4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b",
                 *         "5d9f2a3b-8c4e-4f6a-8b1c-2d3e4f5a6b7c"
                 *       ],
                 *       "included": true
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Whether they are assessed (default true), for all of them
                     * @default true
                     */
                    included?: boolean;
                    /** @description 1 to 100 distinct catalogue scenarios, added in this order */
                    risk_scenario_ids: string[];
                };
            };
        };
        responses: {
            /** @description Created: add many catalogue scenarios to a BRA */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                     *             "risk_level": "Low",
                     *             "justification": "justification"
                     *           },
                     *           "residual_rating": {
                     *             "impact_score": 1,
                     *             "likelihood_score": 1,
                     *             "risk_score": 1,
                     *             "risk_level": "Low",
                     *             "justification": "justification"
                     *           },
                     *           "previous_residual_rating": {
                     *             "impact_score": 1,
                     *             "likelihood_score": 1,
                     *             "risk_score": 1,
                     *             "risk_level": "Low"
                     *           }
                     *         }
                     *       ],
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /** @description The scenario links added, in the order asked */
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
                                justification: string | null;
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
                            previous_residual_rating: {
                                impact_score: number;
                                likelihood_score: number;
                                /**
                                 * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                 * @enum {unknown}
                                 */
                                risk_level: "Low" | "Medium" | "High" | "Very High";
                                risk_score: number;
                            } | null;
                            residual_rating: {
                                /** @description Impact, 1 to 5 */
                                impact_score: number;
                                justification: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
                     *           "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "kind": "created",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "created_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "created_by_user": {
                     *             "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *             "full_name": "Olivia Hart"
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * Format: uuid
                             * @description The BRA it was taken of: this one, or for the approval snapshot a roll-forward started from, the BRA it was rolled from
                             */
                            bra_id: string;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string | null;
                            created_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
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
            header?: {
                /**
                 * @description The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current
                 * @example "7"
                 */
                "if-none-match"?: string;
            };
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
                    /** @description Strong entity tag of the resource's state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "kind": "created",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "created_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "created_by_user": {
                     *           "id": "2b7e4c1a-9d3f-4a6b-8c2e-5f1a0b3c4d5e",
                     *           "full_name": "Olivia Hart"
                     *         },
                     *         "content": {
                     *           "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "name": "Northwind Trading Ltd",
                     *           "description": "What this is about, in a sentence or two.",
                     *           "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "status": "draft",
                     *           "period": "period",
                     *           "assessor": "assessor",
                     *           "start_date": "2026-03-31",
                     *           "completion_date": "2026-03-31",
                     *           "created_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "updated_at": "2026-03-02T09:30:00.000Z",
                     *           "legal_entity": {
                     *             "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "business_unit": {
                     *             "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "name": "Northwind Trading Ltd"
                     *           },
                     *           "approved_by": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "approved_at": "2026-03-02T09:30:00.000Z",
                     *           "final_comment": "final comment",
                     *           "snapshot_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "cancelled_by": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "cancelled_at": "2026-03-02T09:30:00.000Z",
                     *           "cancellation_reason": "cancellation reason",
                     *           "rolled_from_bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "scenarios": [
                     *             {
                     *               "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "risk_scenario_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *               "name": "Northwind Trading Ltd",
                     *               "category": "External fraud",
                     *               "included": true,
                     *               "inherent_rating": {
                     *                 "impact_score": 1,
                     *                 "likelihood_score": 1,
                     *                 "risk_score": 1,
                     *                 "risk_level": "Low",
                     *                 "justification": "justification"
                     *               },
                     *               "residual_rating": {
                     *                 "impact_score": 1,
                     *                 "likelihood_score": 1,
                     *                 "risk_score": 1,
                     *                 "risk_level": "Low",
                     *                 "justification": "justification"
                     *               },
                     *               "previous_residual_rating": {
                     *                 "impact_score": 1,
                     *                 "likelihood_score": 1,
                     *                 "risk_score": 1,
                     *                 "risk_level": "Low"
                     *               },
                     *               "applicable_threshold": 1,
                     *               "above_appetite": true,
                     *               "controls": [
                     *                 {
                     *                   "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                   "bra_risk_scenario_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                   "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                   "key_control_name": "key control name",
                     *                   "sub_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                   "sub_control_name": "sub control name",
                     *                   "tod": "tod",
                     *                   "toe": "toe",
                     *                   "total_effectiveness": "total effectiveness"
                     *                 }
                     *               ],
                     *               "control_effectiveness": "Highly Effective"
                     *             }
                     *           ],
                     *           "controls": [
                     *             {
                     *               "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *               "bra_risk_scenario_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *               "key_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "key_control_name": "key control name",
                     *               "sub_control_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
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
                     *             "completion_percentage": 1,
                     *             "scenarios_above_appetite": [
                     *               {
                     *                 "id": "9d2f6a3b-1c4e-4b8a-8e7f-5a6b7c8d9e01",
                     *                 "risk_scenario_id": "4c8e1f2a-7b3d-4e5f-9a0b-1c2d3e4f5a6b",
                     *                 "name": "Card-not-present fraud",
                     *                 "residual_score": 12,
                     *                 "threshold": 9
                     *               }
                     *             ]
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
                     *             "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "risk_level": "Low",
                     *             "threshold_value": 1,
                     *             "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *             "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21"
                     *           }
                     *         },
                     *         "actions": [
                     *           {
                     *             "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *             "action": "action",
                     *             "owner": "owner",
                     *             "status": "created",
                     *             "priority": "low",
                     *             "action_type": "action type",
                     *             "due_date": "2026-03-31",
                     *             "bra_risk_scenario_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643"
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            actions: {
                                action: string;
                                action_type: string;
                                bra_risk_scenario_id: string | null;
                                /** Format: date */
                                due_date: string;
                                /** Format: uuid */
                                id: string;
                                owner: string;
                                /** @enum {unknown} */
                                priority: "low" | "medium" | "high" | "critical";
                                /** @enum {unknown} */
                                status: "created" | "in_progress" | "completed";
                            }[] | null;
                            /**
                             * Format: uuid
                             * @description The BRA it was taken of: this one, or for the approval snapshot a roll-forward started from, the BRA it was rolled from
                             */
                            bra_id: string;
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
                                /** @description Every control link, BRA-wide and per scenario; newest first */
                                controls: {
                                    bra_risk_scenario_id: string | null;
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
                                rolled_from_bra_id: string | null;
                                /** @description Newest first */
                                scenarios: {
                                    above_appetite: boolean | null;
                                    applicable_threshold: number | null;
                                    /** @description Category of the catalogue scenario */
                                    category: string;
                                    control_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                                    /** @description The controls linked to this scenario (BRA-wide links are not repeated here), newest first */
                                    controls: {
                                        bra_risk_scenario_id: string | null;
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
                                        justification: string | null;
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
                                    previous_residual_rating: {
                                        impact_score: number;
                                        likelihood_score: number;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        risk_score: number;
                                    } | null;
                                    residual_rating: {
                                        /** @description Impact, 1 to 5 */
                                        impact_score: number;
                                        justification: string | null;
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
                                    /** @description The scenarios risks_above_appetite counts, by name: highest residual score first, then by name */
                                    scenarios_above_appetite: {
                                        /**
                                         * Format: uuid
                                         * @description The scenario link
                                         */
                                        id: string;
                                        /** @description Name of the catalogue scenario */
                                        name: string;
                                        /** @description Its current residual risk score */
                                        residual_score: number;
                                        /**
                                         * Format: uuid
                                         * @description The catalogue scenario
                                         */
                                        risk_scenario_id: string;
                                        /** @description The appetite threshold it exceeds */
                                        threshold: number;
                                    }[];
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
                            created_by_user: {
                                /** @description Their full name */
                                full_name: string;
                                /**
                                 * Format: uuid
                                 * @description The user
                                 */
                                id: string;
                            } | null;
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
            /** @description Not modified: the copy named by If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "business_units.update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Bank plc",
                 *       "description": "The UK banking entity"
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description New name of the business unit, unique among its active siblings (case-insensitive); at most 200 characters */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success: rename or describe a business unit */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "business_units.archive": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a business unit */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
                /** @description Only sub-controls linked to this BRA */
                bra_id?: string;
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
    "controls.library.export": {
        parameters: {
            query?: {
                /** @description File format (default csv) */
                format?: "csv" | "xlsx";
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
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv": string;
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "controls.heat_map": {
        parameters: {
            query?: {
                /** @description true also counts archived sub-controls */
                archived?: boolean;
                /** @description Only sub-controls linked to this BRA */
                bra_id?: string;
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
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             }
                     *           },
                     *           "B": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             }
                     *           },
                     *           "C": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             }
                     *           },
                     *           "D": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             }
                     *           },
                     *           "E": {
                     *             "1": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "2": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "business_unit_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "bra_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "3": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "business_unit_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "bra_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "4": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "business_unit_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "bra_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *                 "archived": true
                     *               }
                     *             },
                     *             "5": {
                     *               "count": 0,
                     *               "effectiveness": "Highly Effective",
                     *               "filter": {
                     *                 "tod": "A",
                     *                 "toe": "1",
                     *                 "legal_entity_id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *                 "business_unit_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *                 "bra_id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *                 "archived": true
                     *               }
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
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
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
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
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
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
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
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
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
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    2: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    3: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    4: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
                                    };
                                    5: {
                                        /** @description Assessed sub-controls with this ToD and ToE */
                                        count: number;
                                        /**
                                         * @description The 3.5 label of this cell
                                         * @enum {unknown}
                                         */
                                        effectiveness: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
                                        /** @description The GET /controls/sub-controls query that lists exactly the sub-controls this cell counts */
                                        filter: {
                                            /** @enum {boolean} */
                                            archived?: true;
                                            /** Format: uuid */
                                            bra_id?: string;
                                            /** Format: uuid */
                                            business_unit_id?: string;
                                            /** Format: uuid */
                                            legal_entity_id?: string;
                                            /**
                                             * @description Test of Design: A (Excellent) to E (Inadequate)
                                             * @enum {unknown}
                                             */
                                            tod: "A" | "B" | "C" | "D" | "E";
                                            /**
                                             * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                                             * @enum {unknown}
                                             */
                                            toe: "1" | "2" | "3" | "4" | "5";
                                        };
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
    "controls.library.import": {
        parameters: {
            query?: {
                /** @description true: check and count, write nothing */
                dry_run?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": unknown;
                "text/csv": string;
            };
        };
        responses: {
            /** @description Success: import the control library from a file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "dry_run": true,
                     *         "rows": 0,
                     *         "key_controls": {
                     *           "created": 0,
                     *           "updated": 0,
                     *           "unchanged": 0
                     *         },
                     *         "sub_controls": {
                     *           "created": 0,
                     *           "updated": 0,
                     *           "unchanged": 0
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description true: checked and counted in a transaction that was rolled back; nothing was written */
                            dry_run: boolean;
                            key_controls: {
                                created: number;
                                /** @description Matched by name, nothing to change */
                                unchanged: number;
                                /** @description Matched by name and changed */
                                updated: number;
                            };
                            /** @description Data rows read (blank lines skipped) */
                            rows: number;
                            sub_controls: {
                                created: number;
                                /** @description Matched by name, nothing to change */
                                unchanged: number;
                                /** @description Matched by name and changed */
                                updated: number;
                            };
                        };
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "controls.starter_library.load": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: load the starter control library */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "library": "starter-2026",
                     *         "key_controls": 60,
                     *         "sub_controls": 159,
                     *         "risk_scenario_links": 1,
                     *         "loaded_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /**
                             * @description Key controls created
                             * @example 60
                             */
                            key_controls: number;
                            /**
                             * @description The library loaded
                             * @example starter-2026
                             */
                            library: string;
                            /** Format: date-time */
                            loaded_at: string;
                            /** @description Links from key controls to the catalogue scenarios they mitigate */
                            risk_scenario_links: number;
                            /**
                             * @description Sub-controls created, untested (they count as not_assessed until tested)
                             * @example 159
                             */
                            sub_controls: number;
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
                /** @description Only sub-controls linked to this BRA */
                bra_id?: string;
                /** @description Only sub-controls linked to BRAs of this business unit */
                business_unit_id?: string;
                /** @description Only the sub-controls of this key control */
                key_control_id?: string;
                /** @description Only sub-controls linked to BRAs of this legal entity (as the effectiveness summary) */
                legal_entity_id?: string;
                /** @description true: only those whose ToD or ToE is unset (the not_assessed count); false: only assessed ones */
                not_assessed?: boolean;
                /** @description Only those with this Test of Design (a heat-map row) */
                tod?: "A" | "B" | "C" | "D" | "E";
                /** @description Only those with this Test of Effectiveness (a heat-map column) */
                toe?: "1" | "2" | "3" | "4" | "5";
                /** @description Only those with this total effectiveness (an effectiveness count) */
                total_effectiveness?: "Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective";
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "controls.sub_control.get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current
                 * @example "7"
                 */
                "if-none-match"?: string;
            };
            path: {
                sub_control_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: get a sub-control with its previous result */
            200: {
                headers: {
                    /** @description Strong entity tag of the resource's state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change */
                    etag?: string;
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
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "tests_count": 0,
                     *         "latest_test": {
                     *           "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "source": "baseline",
                     *           "tod": "A",
                     *           "toe": "1",
                     *           "total_effectiveness": "Highly Effective",
                     *           "testing_date": "2026-03-31",
                     *           "tested_by": "tested by",
                     *           "evidence_notes": "evidence notes",
                     *           "tod_justification": "tod justification",
                     *           "toe_justification": "toe justification",
                     *           "recorded_at": "2026-03-02T09:30:00.000Z",
                     *           "recorded_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "recorded_by_user": {
                     *             "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "full_name": "Alex Morgan"
                     *           }
                     *         },
                     *         "previous_result": {
                     *           "id": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "sub_control_id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "source": "baseline",
                     *           "tod": "A",
                     *           "toe": "1",
                     *           "total_effectiveness": "Highly Effective",
                     *           "testing_date": "2026-03-31",
                     *           "tested_by": "tested by",
                     *           "evidence_notes": "evidence notes",
                     *           "tod_justification": "tod justification",
                     *           "toe_justification": "toe justification",
                     *           "recorded_at": "2026-03-02T09:30:00.000Z",
                     *           "recorded_by": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *           "recorded_by_user": {
                     *             "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *             "full_name": "Alex Morgan"
                     *           }
                     *         }
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
                            latest_test: {
                                evidence_notes: string | null;
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description When the result was entered
                                 */
                                recorded_at: string;
                                recorded_by: string | null;
                                recorded_by_user: {
                                    full_name: string;
                                    /** Format: uuid */
                                    id: string;
                                } | null;
                                /**
                                 * @description How the result was entered: test (POST .../tests), update (a PATCH that changed tod, toe or testing_date), create (a sub-control created with a result), import (POST /controls/import), baseline (a result entered before test records existed)
                                 * @enum {unknown}
                                 */
                                source: "baseline" | "create" | "import" | "test" | "update";
                                /** Format: uuid */
                                sub_control_id: string;
                                tested_by: string | null;
                                testing_date: string | null;
                                tod: ("A" | "B" | "C" | "D" | "E") | null;
                                tod_justification: string | null;
                                toe: ("1" | "2" | "3" | "4" | "5") | null;
                                toe_justification: string | null;
                                total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            } | null;
                            name: string;
                            previous_result: {
                                evidence_notes: string | null;
                                /** Format: uuid */
                                id: string;
                                /**
                                 * Format: date-time
                                 * @description When the result was entered
                                 */
                                recorded_at: string;
                                recorded_by: string | null;
                                recorded_by_user: {
                                    full_name: string;
                                    /** Format: uuid */
                                    id: string;
                                } | null;
                                /**
                                 * @description How the result was entered: test (POST .../tests), update (a PATCH that changed tod, toe or testing_date), create (a sub-control created with a result), import (POST /controls/import), baseline (a result entered before test records existed)
                                 * @enum {unknown}
                                 */
                                source: "baseline" | "create" | "import" | "test" | "update";
                                /** Format: uuid */
                                sub_control_id: string;
                                tested_by: string | null;
                                testing_date: string | null;
                                tod: ("A" | "B" | "C" | "D" | "E") | null;
                                tod_justification: string | null;
                                toe: ("1" | "2" | "3" | "4" | "5") | null;
                                toe_justification: string | null;
                                total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
                            } | null;
                            tested_by: string | null;
                            testing_date: string | null;
                            /** @description Records in its test history */
                            tests_count: number;
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
            /** @description Not modified: the copy named by If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    "controls.sub_control.update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "controls.sub_control.test.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
            };
            header?: never;
            path: {
                sub_control_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list a sub-control's test history */
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
                     *           "sub_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "source": "baseline",
                     *           "tod": "A",
                     *           "toe": "1",
                     *           "total_effectiveness": "Highly Effective",
                     *           "testing_date": "2026-03-31",
                     *           "tested_by": "tested by",
                     *           "evidence_notes": "evidence notes",
                     *           "tod_justification": "tod justification",
                     *           "toe_justification": "toe justification",
                     *           "recorded_at": "2026-03-02T09:30:00.000Z",
                     *           "recorded_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *           "recorded_by_user": {
                     *             "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *             "full_name": "Alex Morgan"
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
                            evidence_notes: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: date-time
                             * @description When the result was entered
                             */
                            recorded_at: string;
                            recorded_by: string | null;
                            recorded_by_user: {
                                full_name: string;
                                /** Format: uuid */
                                id: string;
                            } | null;
                            /**
                             * @description How the result was entered: test (POST .../tests), update (a PATCH that changed tod, toe or testing_date), create (a sub-control created with a result), import (POST /controls/import), baseline (a result entered before test records existed)
                             * @enum {unknown}
                             */
                            source: "baseline" | "create" | "import" | "test" | "update";
                            /** Format: uuid */
                            sub_control_id: string;
                            tested_by: string | null;
                            testing_date: string | null;
                            tod: ("A" | "B" | "C" | "D" | "E") | null;
                            tod_justification: string | null;
                            toe: ("1" | "2" | "3" | "4" | "5") | null;
                            toe_justification: string | null;
                            total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
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
    "controls.sub_control.test.record": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                sub_control_id: string;
            };
            cookie?: never;
        };
        /** @description One complete test. total_effectiveness is computed, never sent (422); justifications left out are cleared. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "tod": "B",
                 *       "toe": "2",
                 *       "testing_date": "2026-11-20",
                 *       "tested_by": "Internal Audit — R. Osei",
                 *       "evidence_notes": "Sample of 25 access reviews; all signed off within 10 days.",
                 *       "toe_justification": "Two reviews signed late, within tolerance."
                 *     }
                 */
                "application/json": {
                    /** @description Evidence of the test; at most 5,000 characters */
                    evidence_notes: string;
                    /** @description Who tested it; at most 200 characters */
                    tested_by: string;
                    /**
                     * Format: date
                     * @description When it was tested (YYYY-MM-DD)
                     */
                    testing_date: string;
                    /**
                     * @description Test of Design: A (Excellent) to E (Inadequate)
                     * @enum {unknown}
                     */
                    tod: "A" | "B" | "C" | "D" | "E";
                    tod_justification?: string | null;
                    /**
                     * @description Test of Effectiveness: 1 (Highly Effective) to 5 (Ineffective)
                     * @enum {unknown}
                     */
                    toe: "1" | "2" | "3" | "4" | "5";
                    toe_justification?: string | null;
                };
            };
        };
        responses: {
            /** @description Created: record a complete test of a sub-control */
            201: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "sub_control_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "source": "baseline",
                     *         "tod": "A",
                     *         "toe": "1",
                     *         "total_effectiveness": "Highly Effective",
                     *         "testing_date": "2026-03-31",
                     *         "tested_by": "tested by",
                     *         "evidence_notes": "evidence notes",
                     *         "tod_justification": "tod justification",
                     *         "toe_justification": "toe justification",
                     *         "recorded_at": "2026-03-02T09:30:00.000Z",
                     *         "recorded_by": "0c7e5a12-9d34-4b8f-a6e1-3f2b8c71d432",
                     *         "recorded_by_user": {
                     *           "id": "e8a3f0b6-6c21-4d7e-b5f9-12c4a8d9e643",
                     *           "full_name": "Alex Morgan"
                     *         }
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            evidence_notes: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: date-time
                             * @description When the result was entered
                             */
                            recorded_at: string;
                            recorded_by: string | null;
                            recorded_by_user: {
                                full_name: string;
                                /** Format: uuid */
                                id: string;
                            } | null;
                            /**
                             * @description How the result was entered: test (POST .../tests), update (a PATCH that changed tod, toe or testing_date), create (a sub-control created with a result), import (POST /controls/import), baseline (a result entered before test records existed)
                             * @enum {unknown}
                             */
                            source: "baseline" | "create" | "import" | "test" | "update";
                            /** Format: uuid */
                            sub_control_id: string;
                            tested_by: string | null;
                            testing_date: string | null;
                            tod: ("A" | "B" | "C" | "D" | "E") | null;
                            tod_justification: string | null;
                            toe: ("1" | "2" | "3" | "4" | "5") | null;
                            toe_justification: string | null;
                            total_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "reporting.dashboard": {
        parameters: {
            query?: {
                /** @description Only this business unit (403 when not assigned to the caller) */
                business_unit_id?: string;
                /** @description Only this legal entity (403 when not assigned to the caller) */
                legal_entity_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the risk dashboard */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "bras_by_status": {
                     *           "draft": 1,
                     *           "in_progress": 2,
                     *           "under_review": 1,
                     *           "approved": 1,
                     *           "cancelled": 1,
                     *           "total": 6
                     *         },
                     *         "scenarios": {
                     *           "assessed": 3,
                     *           "above_appetite": 1,
                     *           "within_appetite": 2,
                     *           "within_appetite_percentage": 67
                     *         },
                     *         "heat_maps": {
                     *           "inherent": {
                     *             "impact_levels": [
                     *               1,
                     *               2,
                     *               3,
                     *               4,
                     *               5
                     *             ],
                     *             "likelihood_levels": [
                     *               1,
                     *               2,
                     *               3,
                     *               4,
                     *               5
                     *             ],
                     *             "cells": [],
                     *             "total": 3
                     *           },
                     *           "residual": {
                     *             "impact_levels": [
                     *               1,
                     *               2,
                     *               3,
                     *               4,
                     *               5
                     *             ],
                     *             "likelihood_levels": [
                     *               1,
                     *               2,
                     *               3,
                     *               4,
                     *               5
                     *             ],
                     *             "cells": [],
                     *             "total": 3
                     *           }
                     *         },
                     *         "overdue_actions": {
                     *           "low": 0,
                     *           "medium": 1,
                     *           "high": 2,
                     *           "critical": 0,
                     *           "total": 3
                     *         },
                     *         "sub_controls": {
                     *           "highly_effective": 2,
                     *           "effective": 3,
                     *           "moderately_effective": 1,
                     *           "less_effective": 1,
                     *           "not_effective": 0,
                     *           "not_assessed": 2,
                     *           "total": 9,
                     *           "untested_over_12_months": 3
                     *         },
                     *         "trend": [
                     *           {
                     *             "period": "FY2026",
                     *             "first_approved_at": "2026-06-30T14:05:00.000Z",
                     *             "bras": 1,
                     *             "scenarios": 3,
                     *             "average_residual_score": 8.33,
                     *             "max_residual_score": 12
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @example {
                         *       "bras_by_status": {
                         *         "draft": 1,
                         *         "in_progress": 2,
                         *         "under_review": 1,
                         *         "approved": 1,
                         *         "cancelled": 1,
                         *         "total": 6
                         *       },
                         *       "scenarios": {
                         *         "assessed": 3,
                         *         "above_appetite": 1,
                         *         "within_appetite": 2,
                         *         "within_appetite_percentage": 67
                         *       },
                         *       "heat_maps": {
                         *         "inherent": {
                         *           "impact_levels": [
                         *             1,
                         *             2,
                         *             3,
                         *             4,
                         *             5
                         *           ],
                         *           "likelihood_levels": [
                         *             1,
                         *             2,
                         *             3,
                         *             4,
                         *             5
                         *           ],
                         *           "cells": [],
                         *           "total": 3
                         *         },
                         *         "residual": {
                         *           "impact_levels": [
                         *             1,
                         *             2,
                         *             3,
                         *             4,
                         *             5
                         *           ],
                         *           "likelihood_levels": [
                         *             1,
                         *             2,
                         *             3,
                         *             4,
                         *             5
                         *           ],
                         *           "cells": [],
                         *           "total": 3
                         *         }
                         *       },
                         *       "overdue_actions": {
                         *         "low": 0,
                         *         "medium": 1,
                         *         "high": 2,
                         *         "critical": 0,
                         *         "total": 3
                         *       },
                         *       "sub_controls": {
                         *         "highly_effective": 2,
                         *         "effective": 3,
                         *         "moderately_effective": 1,
                         *         "less_effective": 1,
                         *         "not_effective": 0,
                         *         "not_assessed": 2,
                         *         "total": 9,
                         *         "untested_over_12_months": 3
                         *       },
                         *       "trend": [
                         *         {
                         *           "period": "FY2026",
                         *           "first_approved_at": "2026-06-30T14:05:00.000Z",
                         *           "bras": 1,
                         *           "scenarios": 3,
                         *           "average_residual_score": 8.33,
                         *           "max_residual_score": 12
                         *         }
                         *       ]
                         *     }
                         */
                        data: {
                            /** @description The BRAs GET /bras lists with the same filters, by status */
                            bras_by_status: {
                                approved: number;
                                cancelled: number;
                                draft: number;
                                in_progress: number;
                                /** @description Every BRA the caller sees in the place */
                                total: number;
                                under_review: number;
                            };
                            heat_maps: {
                                inherent: {
                                    /** @description All 25 cells, impact 5 first, likelihood 1 to 5 within */
                                    cells: {
                                        /** @description Register rows rated in this cell */
                                        count: number;
                                        impact_score: number;
                                        likelihood_score: number;
                                        /** @description The GET /risk-register query parameters that list exactly this cell’s rows */
                                        register_filter: {
                                            [key: string]: string | number;
                                        };
                                        /** @description The same filter as a query string */
                                        register_query: string;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        /** @description impact × likelihood */
                                        risk_score: number;
                                    }[];
                                    impact_levels: number[];
                                    likelihood_levels: number[];
                                    /** @description Rows with a rating of this kind */
                                    total: number;
                                };
                                residual: {
                                    /** @description All 25 cells, impact 5 first, likelihood 1 to 5 within */
                                    cells: {
                                        /** @description Register rows rated in this cell */
                                        count: number;
                                        impact_score: number;
                                        likelihood_score: number;
                                        /** @description The GET /risk-register query parameters that list exactly this cell’s rows */
                                        register_filter: {
                                            [key: string]: string | number;
                                        };
                                        /** @description The same filter as a query string */
                                        register_query: string;
                                        /**
                                         * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                         * @enum {unknown}
                                         */
                                        risk_level: "Low" | "Medium" | "High" | "Very High";
                                        /** @description impact × likelihood */
                                        risk_score: number;
                                    }[];
                                    impact_levels: number[];
                                    likelihood_levels: number[];
                                    /** @description Rows with a rating of this kind */
                                    total: number;
                                };
                            };
                            /** @description The caller’s overdue actions (GET /mitigation-actions?overdue_only=true), by priority; with a place, those of its BRAs */
                            overdue_actions: {
                                critical: number;
                                high: number;
                                low: number;
                                medium: number;
                                total: number;
                            };
                            /** @description Over the risk register’s rows: the included scenarios of the newest approved BRA of each entity / unit */
                            scenarios: {
                                /** @description Register rows whose residual score exceeds the applicable appetite */
                                above_appetite: number;
                                /** @description Register rows with an inherent and a residual rating */
                                assessed: number;
                                /** @description assessed − above_appetite */
                                within_appetite: number;
                                /** @description round(100 × within / assessed); 0 when nothing is assessed */
                                within_appetite_percentage: number;
                            };
                            /** @description Sub-controls by total effectiveness */
                            sub_controls: {
                                effective: number;
                                highly_effective: number;
                                less_effective: number;
                                moderately_effective: number;
                                not_assessed: number;
                                not_effective: number;
                                /** @description Non-archived sub-controls in scope (as GET /controls/effectiveness counts them) */
                                total: number;
                                /** @description Of those, never tested or last tested more than 12 months ago */
                                untested_over_12_months: number;
                            };
                            /** @description Per approval period, oldest first: is the residual risk getting better? */
                            trend: {
                                average_residual_score: number | null;
                                /** @description Approved BRAs of the period */
                                bras: number;
                                /**
                                 * Format: date-time
                                 * @description The earliest approval of the period (the trend’s order)
                                 */
                                first_approved_at: string;
                                max_residual_score: number | null;
                                /** @description The period label of the approved BRAs */
                                period: string;
                                /** @description Their included scenarios with a residual rating */
                                scenarios: number;
                            }[];
                        };
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
                            /** @description null when the override was deleted */
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
            query?: {
                /** @description true also lists archived entities and units */
                include_archived?: boolean;
            };
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
                     *           "archived_at": "2026-03-02T09:30:00.000Z",
                     *           "business_units": [
                     *             {
                     *               "id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *               "name": "Northwind Trading Ltd",
                     *               "description": "What this is about, in a sentence or two.",
                     *               "archived_at": "2026-03-02T09:30:00.000Z"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
                            /** @description Its business units, newest first. An assessor or reviewer assigned to particular units sees only those. */
                            business_units: {
                                archived_at: string | null;
                                description: string | null;
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
    "legal_entities.update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Northwind Bank plc",
                 *       "description": "The UK banking entity"
                 *     }
                 */
                "application/json": {
                    description?: string | null;
                    /** @description New name of the legal entity, unique among its active siblings (case-insensitive); at most 200 characters */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success: rename or describe a legal entity */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "legal_entities.archive": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a legal entity (and its business units) */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "name": "Northwind Trading Ltd",
                     *         "description": "What this is about, in a sentence or two.",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current
                 * @example "7"
                 */
                "if-none-match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the authenticated caller */
            200: {
                headers: {
                    /** @description Strong entity tag of the resource's state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change */
                    etag?: string;
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
            /** @description Not modified: the copy named by If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
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
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "reporting.register": {
        parameters: {
            query?: {
                /** @description true: only residual ratings above the applicable appetite; false: only those within it */
                above_appetite?: boolean;
                /** @description Only rows of this business unit (403 when not assigned to the caller) */
                business_unit_id?: string;
                /** @description Only scenarios of this catalogue category */
                category?: string;
                /** @description true adds the scenarios of live BRAs (draft, in progress, under review), marked live */
                include_live?: boolean;
                /** @description Inherent impact, 1 to 5 (a heat-map cell's filter) */
                inherent_impact?: number;
                /** @description Inherent likelihood, 1 to 5 (a heat-map cell's filter) */
                inherent_likelihood?: number;
                /** @description Only rows of this legal entity (403 when not assigned to the caller) */
                legal_entity_id?: string;
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
                /** @description Residual impact, 1 to 5 (a heat-map cell's filter) */
                residual_impact?: number;
                /** @description Residual likelihood, 1 to 5 (a heat-map cell's filter) */
                residual_likelihood?: number;
                /** @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High */
                risk_level?: "Low" | "Medium" | "High" | "Very High";
                /** @description residual_score (default): highest residual score first, unrated last; name: by scenario name */
                sort?: "residual_score" | "name";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: the risk register */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "legal_entity": {
                     *             "id": "5b1e0f7a-3c2d-4e8f-9a6b-1c2d3e4f5a6b",
                     *             "name": "Harbourview Bank plc"
                     *           },
                     *           "business_unit": {
                     *             "id": "6c2f1a8b-4d3e-4f9a-8b7c-2d3e4f5a6b7c",
                     *             "name": "Retail Banking"
                     *           },
                     *           "bra": {
                     *             "id": "7d3a2b9c-5e4f-4a0b-9c8d-3e4f5a6b7c8d",
                     *             "name": "Retail Banking fraud risk assessment FY2026",
                     *             "period": "FY2026",
                     *             "status": "approved",
                     *             "approved_at": "2026-06-30T14:05:00.000Z",
                     *             "live": false
                     *           },
                     *           "scenario": {
                     *             "id": "8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e",
                     *             "risk_scenario_id": "9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f",
                     *             "name": "Cyber intrusion and data theft",
                     *             "category": "External fraud"
                     *           },
                     *           "inherent_rating": {
                     *             "impact_score": 5,
                     *             "likelihood_score": 3,
                     *             "risk_score": 15,
                     *             "risk_level": "High"
                     *           },
                     *           "residual_rating": {
                     *             "impact_score": 4,
                     *             "likelihood_score": 3,
                     *             "risk_score": 12,
                     *             "risk_level": "High"
                     *           },
                     *           "appetite_threshold": 9,
                     *           "above_appetite": true,
                     *           "control_effectiveness": "Moderately Effective",
                     *           "open_actions": 2,
                     *           "overdue_actions": 1
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
                            /** @description The residual risk score exceeds the threshold (false without a residual rating) */
                            above_appetite: boolean;
                            appetite_threshold: number | null;
                            bra: {
                                approved_at: string | null;
                                /**
                                 * Format: uuid
                                 * @description The BRA
                                 */
                                id: string;
                                /** @description true for a live BRA (include_live=true), false for the newest approved BRA of its place */
                                live: boolean;
                                name: string;
                                /** @description Free-text label of the assessment period */
                                period: string;
                                /**
                                 * @description Where the BRA is in its life (3.1, D6.7)
                                 * @enum {unknown}
                                 */
                                status: "draft" | "in_progress" | "under_review" | "approved" | "cancelled";
                            };
                            business_unit: {
                                /**
                                 * Format: uuid
                                 * @description The business unit
                                 */
                                id: string;
                                /** @description Name of the business unit */
                                name: string;
                            } | null;
                            control_effectiveness: ("Highly Effective" | "Effective" | "Moderately Effective" | "Less Effective" | "Not Effective") | null;
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
                            legal_entity: {
                                /**
                                 * Format: uuid
                                 * @description The legal entity
                                 */
                                id: string;
                                /** @description Name of the legal entity */
                                name: string;
                            };
                            /** @description Mitigation actions of the scenario not completed (archived ones left out) */
                            open_actions: number;
                            /** @description Of those, the overdue ones (D7.3) */
                            overdue_actions: number;
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
                            scenario: {
                                category: string;
                                /**
                                 * Format: uuid
                                 * @description The scenario link (what ratings, controls and actions refer to)
                                 */
                                id: string;
                                name: string;
                                /**
                                 * Format: uuid
                                 * @description The catalogue scenario
                                 */
                                risk_scenario_id: string;
                            };
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
    "reporting.register.export": {
        parameters: {
            query?: {
                /** @description true: only residual ratings above the applicable appetite; false: only those within it */
                above_appetite?: boolean;
                /** @description Only rows of this business unit (403 when not assigned to the caller) */
                business_unit_id?: string;
                /** @description Only scenarios of this catalogue category */
                category?: string;
                /** @description csv (default) or xlsx */
                format?: "csv" | "xlsx";
                /** @description true adds the scenarios of live BRAs (draft, in progress, under review), marked live */
                include_live?: boolean;
                /** @description Inherent impact, 1 to 5 (a heat-map cell's filter) */
                inherent_impact?: number;
                /** @description Inherent likelihood, 1 to 5 (a heat-map cell's filter) */
                inherent_likelihood?: number;
                /** @description Only rows of this legal entity (403 when not assigned to the caller) */
                legal_entity_id?: string;
                /** @description Residual impact, 1 to 5 (a heat-map cell's filter) */
                residual_impact?: number;
                /** @description Residual likelihood, 1 to 5 (a heat-map cell's filter) */
                residual_likelihood?: number;
                /** @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High */
                risk_level?: "Low" | "Medium" | "High" | "Very High";
                /** @description residual_score (default): highest residual score first, unrated last; name: by scenario name */
                sort?: "residual_score" | "name";
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
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv": string;
                };
            };
            /** @description Malformed input or invalid reference */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, expired or invalid token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The role or entity assignment does not allow this call */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit exceeded */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Database unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorBody"];
                    "text/csv": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "risk_scenarios.list": {
        parameters: {
            query?: {
                /** @description Only scenarios of exactly this category */
                category?: string;
                /** @description true also lists archived scenarios */
                include_archived?: boolean;
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
                     *           "created_at": "2026-03-02T09:30:00.000Z",
                     *           "archived_at": "2026-03-02T09:30:00.000Z"
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
                            archived_at: string | null;
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
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
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
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
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
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "risk_scenarios.update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Card-not-present fraud",
                 *       "category": "External fraud"
                 *     }
                 */
                "application/json": {
                    /** @description New category, at most 200 characters */
                    category?: string;
                    description?: string | null;
                    /** @description New name, unique among the active scenarios of the enterprise (case-insensitive) */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Success: change a risk scenario of the catalogue */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "risk_scenarios.archive": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: archive a risk scenario */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "archived_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            archived_at: string | null;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "reporting.scenario_trend": {
        parameters: {
            query?: {
                /** @description Only approved BRAs of this business unit (400 when unknown or of another entity, 403 when not assigned) */
                business_unit_id?: string;
                /** @description Only approved BRAs of this legal entity (400 when unknown, 403 when not assigned to the caller) */
                legal_entity_id?: string;
            };
            header?: never;
            path: {
                /** @description The catalogue scenario */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: a scenario's ratings across approved BRAs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "risk_scenario": {
                     *           "id": "9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f",
                     *           "name": "Cyber intrusion and data theft",
                     *           "category": "External fraud"
                     *         },
                     *         "points": [
                     *           {
                     *             "bra": {
                     *               "id": "1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b",
                     *               "name": "Retail Banking fraud risk assessment FY2026",
                     *               "period": "FY2026",
                     *               "approved_at": "2026-06-30T14:05:00.000Z",
                     *               "snapshot_id": "4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e",
                     *               "rolled_from_bra_id": null
                     *             },
                     *             "legal_entity": {
                     *               "id": "5b1e0f7a-3c2d-4e8f-9a6b-1c2d3e4f5a6b",
                     *               "name": "Harbourview Bank plc"
                     *             },
                     *             "business_unit": {
                     *               "id": "6c2f1a8b-4d3e-4f9a-8b7c-2d3e4f5a6b7c",
                     *               "name": "Retail Banking"
                     *             },
                     *             "bra_risk_scenario_id": "8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e",
                     *             "inherent_rating": {
                     *               "impact_score": 5,
                     *               "likelihood_score": 3,
                     *               "risk_score": 15,
                     *               "risk_level": "High"
                     *             },
                     *             "residual_rating": {
                     *               "impact_score": 4,
                     *               "likelihood_score": 3,
                     *               "risk_score": 12,
                     *               "risk_level": "High"
                     *             }
                     *           }
                     *         ]
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        /**
                         * @example {
                         *       "risk_scenario": {
                         *         "id": "9f5c4d1e-7a6b-4c2d-9e0f-5a6b7c8d9e0f",
                         *         "name": "Cyber intrusion and data theft",
                         *         "category": "External fraud"
                         *       },
                         *       "points": [
                         *         {
                         *           "bra": {
                         *             "id": "1b8d6f30-7a2c-4e5d-90b1-6c7d8e9f0a1b",
                         *             "name": "Retail Banking fraud risk assessment FY2026",
                         *             "period": "FY2026",
                         *             "approved_at": "2026-06-30T14:05:00.000Z",
                         *             "snapshot_id": "4e1b9c63-0d5f-4a8b-c3e4-9f0a1b2c3d4e",
                         *             "rolled_from_bra_id": null
                         *           },
                         *           "legal_entity": {
                         *             "id": "5b1e0f7a-3c2d-4e8f-9a6b-1c2d3e4f5a6b",
                         *             "name": "Harbourview Bank plc"
                         *           },
                         *           "business_unit": {
                         *             "id": "6c2f1a8b-4d3e-4f9a-8b7c-2d3e4f5a6b7c",
                         *             "name": "Retail Banking"
                         *           },
                         *           "bra_risk_scenario_id": "8e4b3c0d-6f5a-4b1c-8d9e-4f5a6b7c8d9e",
                         *           "inherent_rating": {
                         *             "impact_score": 5,
                         *             "likelihood_score": 3,
                         *             "risk_score": 15,
                         *             "risk_level": "High"
                         *           },
                         *           "residual_rating": {
                         *             "impact_score": 4,
                         *             "likelihood_score": 3,
                         *             "risk_score": 12,
                         *             "risk_level": "High"
                         *           }
                         *         }
                         *       ]
                         *     }
                         */
                        data: {
                            /** @description One per approved BRA of the caller’s scope in which the scenario is included, oldest approval first (ties by BRA id) */
                            points: {
                                bra: {
                                    /**
                                     * Format: date-time
                                     * @description When it was approved: the order of the points
                                     */
                                    approved_at: string;
                                    /**
                                     * Format: uuid
                                     * @description The approved BRA
                                     */
                                    id: string;
                                    name: string;
                                    /** @description Its period label */
                                    period: string;
                                    rolled_from_bra_id: string | null;
                                    snapshot_id: string | null;
                                };
                                /**
                                 * Format: uuid
                                 * @description The scenario link in that BRA
                                 */
                                bra_risk_scenario_id: string;
                                business_unit: {
                                    /**
                                     * Format: uuid
                                     * @description The business unit
                                     */
                                    id: string;
                                    /** @description Name of the business unit */
                                    name: string;
                                } | null;
                                inherent_rating: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                                legal_entity: {
                                    /**
                                     * Format: uuid
                                     * @description The legal entity
                                     */
                                    id: string;
                                    /** @description Name of the legal entity */
                                    name: string;
                                };
                                residual_rating: {
                                    impact_score: number;
                                    likelihood_score: number;
                                    /**
                                     * @description The band of the risk score (D6.1): 1–4 Low, 5–9 Medium, 10–15 High, 16–25 Very High
                                     * @enum {unknown}
                                     */
                                    risk_level: "Low" | "Medium" | "High" | "Very High";
                                    risk_score: number;
                                } | null;
                            }[];
                            risk_scenario: {
                                category: string;
                                /** Format: uuid */
                                id: string;
                                name: string;
                            };
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
    "webhooks.list": {
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
            /** @description Success: list webhook endpoints */
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
                     *           "url": "url",
                     *           "event_types": [
                     *             "event types"
                     *           ],
                     *           "description": "What this is about, in a sentence or two.",
                     *           "enabled": true,
                     *           "disabled_reason": "disabled reason",
                     *           "failing_since": "2026-03-02T09:30:00.000Z",
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
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            disabled_reason: string | null;
                            /** @description false: nothing is sent (disabled by an admin, or by the service after 24 hours of failures) */
                            enabled: boolean;
                            /** @description The event types sent to it */
                            event_types: string[];
                            failing_since: string | null;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Where events are POSTed */
                            url: string;
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
    "webhooks.create": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/risk-events",
                 *       "event_types": [
                 *         "bra.approved",
                 *         "risk.above_appetite",
                 *         "mitigation_action.overdue"
                 *       ],
                 *       "description": "What this is about, in a sentence or two."
                 *     }
                 */
                "application/json": {
                    /** @description What the endpoint is for, at most 5,000 characters */
                    description?: string;
                    /**
                     * @description The event types sent to the endpoint, at least one
                     * @example [
                     *       "bra.approved",
                     *       "risk.above_appetite",
                     *       "mitigation_action.overdue"
                     *     ]
                     */
                    event_types: ("bra.created" | "bra.status_changed" | "bra.approved" | "bra.cancelled" | "risk.above_appetite" | "mitigation_action.overdue" | "mitigation_action.completed" | "risk_appetite.changed")[];
                    /**
                     * @description Where events are POSTed: https, on a public address (checked again at every connection, after DNS). http and loopback addresses only when the service runs with WEBHOOKS_ALLOW_LOOPBACK=true (development).
                     * @example https://hooks.example.com/risk-events
                     */
                    url: string;
                };
            };
        };
        responses: {
            /** @description The endpoint and its secret */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "url": "url",
                     *         "event_types": [
                     *           "event types"
                     *         ],
                     *         "description": "What this is about, in a sentence or two.",
                     *         "enabled": true,
                     *         "disabled_reason": "disabled reason",
                     *         "failing_since": "2026-03-02T09:30:00.000Z",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z",
                     *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4wZ2s9kRz1c="
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            disabled_reason: string | null;
                            /** @description false: nothing is sent (disabled by an admin, or by the service after 24 hours of failures) */
                            enabled: boolean;
                            /** @description The event types sent to it */
                            event_types: string[];
                            failing_since: string | null;
                            /** Format: uuid */
                            id: string;
                            /**
                             * @description The signing secret: `whsec_` + base64 of 32 random bytes. Shown only here; keep it to verify the `webhook-signature` header (Standard Webhooks).
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4wZ2s9kRz1c=
                             */
                            secret: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Where events are POSTed */
                            url: string;
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
            /** @description IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
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
            /** @description The body breaks its schema; or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
    "webhooks.get": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag of the copy you hold: 304 Not Modified, without a body, while it is still current
                 * @example "7"
                 */
                "if-none-match"?: string;
            };
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: get a webhook endpoint */
            200: {
                headers: {
                    /** @description Strong entity tag of the resource's state: the same on a read and on the answer to a change. Send it in If-None-Match on a read, in If-Match on a change */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "url": "url",
                     *         "event_types": [
                     *           "event types"
                     *         ],
                     *         "description": "What this is about, in a sentence or two.",
                     *         "enabled": true,
                     *         "disabled_reason": "disabled reason",
                     *         "failing_since": "2026-03-02T09:30:00.000Z",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            disabled_reason: string | null;
                            /** @description false: nothing is sent (disabled by an admin, or by the service after 24 hours of failures) */
                            enabled: boolean;
                            /** @description The event types sent to it */
                            event_types: string[];
                            failing_since: string | null;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Where events are POSTed */
                            url: string;
                        };
                    };
                };
            };
            /** @description Not modified: the copy named by If-None-Match is current (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
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
    "webhooks.delete": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: delete a webhook endpoint */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "webhooks.update": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://hooks.example.com/risk-events",
                 *       "event_types": [
                 *         "bra.approved",
                 *         "risk.above_appetite",
                 *         "mitigation_action.overdue"
                 *       ],
                 *       "description": "What this is about, in a sentence or two.",
                 *       "enabled": true
                 *     }
                 */
                "application/json": {
                    /** @description What the endpoint is for, at most 5,000 characters */
                    description?: string;
                    /** @description true enables it again (its queued deliveries resume); false pauses it */
                    enabled?: boolean;
                    /**
                     * @description The event types sent to the endpoint, at least one
                     * @example [
                     *       "bra.approved",
                     *       "risk.above_appetite",
                     *       "mitigation_action.overdue"
                     *     ]
                     */
                    event_types?: ("bra.created" | "bra.status_changed" | "bra.approved" | "bra.cancelled" | "risk.above_appetite" | "mitigation_action.overdue" | "mitigation_action.completed" | "risk_appetite.changed")[];
                    /**
                     * @description Where events are POSTed: https, on a public address (checked again at every connection, after DNS). http and loopback addresses only when the service runs with WEBHOOKS_ALLOW_LOOPBACK=true (development).
                     * @example https://hooks.example.com/risk-events
                     */
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Success: change a webhook endpoint */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "url": "url",
                     *         "event_types": [
                     *           "event types"
                     *         ],
                     *         "description": "What this is about, in a sentence or two.",
                     *         "enabled": true,
                     *         "disabled_reason": "disabled reason",
                     *         "failing_since": "2026-03-02T09:30:00.000Z",
                     *         "created_at": "2026-03-02T09:30:00.000Z",
                     *         "updated_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            created_at: string;
                            description: string | null;
                            disabled_reason: string | null;
                            /** @description false: nothing is sent (disabled by an admin, or by the service after 24 hours of failures) */
                            enabled: boolean;
                            /** @description The event types sent to it */
                            event_types: string[];
                            failing_since: string | null;
                            /** Format: uuid */
                            id: string;
                            /** Format: date-time */
                            updated_at: string;
                            /** @description Where events are POSTed */
                            url: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
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
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "webhooks.deliveries.list": {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page; values above 100 are clamped to 100 */
                page_size?: number;
            };
            header?: never;
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: list the deliveries of a webhook endpoint */
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
                     *           "event_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *           "event_type": "event type",
                     *           "status": "pending",
                     *           "attempt_count": 1,
                     *           "last_status_code": 1,
                     *           "last_error": "last error",
                     *           "last_attempt_at": "2026-03-02T09:30:00.000Z",
                     *           "next_attempt_at": "2026-03-02T09:30:00.000Z",
                     *           "delivered_at": "2026-03-02T09:30:00.000Z",
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
                     *       }
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Attempts made so far */
                            attempt_count: number;
                            /**
                             * Format: date-time
                             * @description When it was queued
                             */
                            created_at: string;
                            delivered_at: string | null;
                            /**
                             * Format: uuid
                             * @description The event: the `webhook-id` header, the same on every attempt
                             */
                            event_id: string;
                            event_type: string;
                            /** Format: uuid */
                            id: string;
                            last_attempt_at: string | null;
                            last_error: string | null;
                            last_status_code: number | null;
                            next_attempt_at: string | null;
                            /**
                             * @description pending: queued or waiting for a retry; delivered: a 2xx answer; failed: 24 hours of failed attempts
                             * @enum {unknown}
                             */
                            status: "pending" | "delivered" | "failed";
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
    "webhooks.deliveries.retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Id of the delivery */
                delivery_id: string;
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: retry a delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "event_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "event_type": "event type",
                     *         "status": "pending",
                     *         "attempt_count": 1,
                     *         "last_status_code": 1,
                     *         "last_error": "last error",
                     *         "last_attempt_at": "2026-03-02T09:30:00.000Z",
                     *         "next_attempt_at": "2026-03-02T09:30:00.000Z",
                     *         "delivered_at": "2026-03-02T09:30:00.000Z",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Attempts made so far */
                            attempt_count: number;
                            /**
                             * Format: date-time
                             * @description When it was queued
                             */
                            created_at: string;
                            delivered_at: string | null;
                            /**
                             * Format: uuid
                             * @description The event: the `webhook-id` header, the same on every attempt
                             */
                            event_id: string;
                            event_type: string;
                            /** Format: uuid */
                            id: string;
                            last_attempt_at: string | null;
                            last_error: string | null;
                            last_status_code: number | null;
                            next_attempt_at: string | null;
                            /**
                             * @description pending: queued or waiting for a retry; delivered: a 2xx answer; failed: 24 hours of failed attempts
                             * @enum {unknown}
                             */
                            status: "pending" | "delivered" | "failed";
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
    "webhooks.rotate_secret": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The ETag you last read or were answered: the change applies only if the resource is still in that state (else 412, nothing changed). Mandatory when the service runs with REQUIRE_IF_MATCH=true (428 without it).
                 * @example "7"
                 */
                "if-match"?: string;
            };
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success: rotate the signing secret of a webhook endpoint */
            200: {
                headers: {
                    /** @description The resource's new ETag: what its next read answers, for the next If-Match */
                    etag?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4wZ2s9kRz1c=",
                     *         "previous_secret_expires_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /**
                             * Format: date-time
                             * @description Until when the previous secret signs too
                             */
                            previous_secret_expires_at: string;
                            /**
                             * @description The signing secret: `whsec_` + base64 of 32 random bytes. Shown only here; keep it to verify the `webhook-signature` header (Standard Webhooks).
                             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw4wZ2s9kRz1c=
                             */
                            secret: string;
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
            /** @description PRECONDITION_FAILED: the resource changed since the ETag in If-Match, and nothing was changed; details.current_etag is its ETag now. Example: {"error":"The resource has changed since the version in If-Match; read it again","code":"PRECONDITION_FAILED","request_id":"7b6c2a90-…","details":{"current_etag":"\"8\""}} */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description PRECONDITION_REQUIRED: the service requires If-Match on changes (REQUIRE_IF_MATCH=true) */
            428: {
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
    "webhooks.test": {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique value per intended change (a UUID): a retry with the same key and the same request replays the first answer for 24 hours instead of acting twice. Over 255 characters: 400.
                 * @example 5c0e5f9e-8d0b-4f3a-9a57-5d2f3b1c7e21
                 */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Id of the webhook endpoint */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created: send a test event to a webhook endpoint */
            201: {
                headers: {
                    /** @description Present on a replay: this is the stored first answer to the same Idempotency-Key */
                    "idempotent-replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": {
                     *         "id": "6f1c8f4e-2b7a-4c1d-9a53-0e7d2c4b9a10",
                     *         "event_id": "b2d94a37-51e8-4f06-8c2b-7a13e9f05d21",
                     *         "event_type": "event type",
                     *         "status": "pending",
                     *         "attempt_count": 1,
                     *         "last_status_code": 1,
                     *         "last_error": "last error",
                     *         "last_attempt_at": "2026-03-02T09:30:00.000Z",
                     *         "next_attempt_at": "2026-03-02T09:30:00.000Z",
                     *         "delivered_at": "2026-03-02T09:30:00.000Z",
                     *         "created_at": "2026-03-02T09:30:00.000Z"
                     *       },
                     *       "message": "Done"
                     *     }
                     */
                    "application/json": {
                        data: {
                            /** @description Attempts made so far */
                            attempt_count: number;
                            /**
                             * Format: date-time
                             * @description When it was queued
                             */
                            created_at: string;
                            delivered_at: string | null;
                            /**
                             * Format: uuid
                             * @description The event: the `webhook-id` header, the same on every attempt
                             */
                            event_id: string;
                            event_type: string;
                            /** Format: uuid */
                            id: string;
                            last_attempt_at: string | null;
                            last_error: string | null;
                            last_status_code: number | null;
                            next_attempt_at: string | null;
                            /**
                             * @description pending: queued or waiting for a retry; delivered: a 2xx answer; failed: 24 hours of failed attempts
                             * @enum {unknown}
                             */
                            status: "pending" | "delivered" | "failed";
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
            /** @description Conflict with a uniqueness rule or the resource state; or IDEMPOTENCY_IN_PROGRESS: a request with this Idempotency-Key is still running; retry later */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used for a different request */
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
            /** @description Not a refusal of this operation, which takes no input: a request the HTTP server cannot read (400, or 431 for headers over its limit) or another method on this path (404, in the error shape). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
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
            /** @description Not a refusal of this operation, which takes no input: a request the HTTP server cannot read (400, or 431 for headers over its limit) or another method on this path (404, in the error shape). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
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
    "auth.recover": {
        parameters: {
            query?: {
                /** @description Where the browser goes next; must be on AUTH_REDIRECT_URLS (default: the service origin) */
                redirect_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "alex.morgan@example.com"
                 *     }
                 */
                "application/json": {
                    /** @description The account e-mail (case-insensitive) */
                    email?: string;
                };
            };
        };
        responses: {
            /** @description Accepted (the same answer for any address) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing email, or redirect_to not allowed */
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
    "auth.user.update": {
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
                 *       "password": "a-new-long-passphrase"
                 *     }
                 */
                "application/json": {
                    /** @description Refused: an administrator changes e-mail addresses */
                    email?: string;
                    /** @description At least 8 characters */
                    password?: string;
                    /** @description Refused */
                    phone?: string;
                };
            };
        };
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
            /** @description An e-mail or phone change */
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
            /** @description weak_password */
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
    "auth.verify.link": {
        parameters: {
            query?: {
                /** @description Where the browser goes next; must be on AUTH_REDIRECT_URLS (default: the service origin) */
                redirect_to?: string;
                /** @description The one-time token of the link */
                token?: string;
                /** @description invite or recovery: the kind of link */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Redirect to redirect_to, with the session or the error in the fragment */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing token or type, or redirect_to not allowed */
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
        };
    };
    "auth.verify": {
        parameters: {
            query?: {
                /** @description Where the browser goes next; must be on AUTH_REDIRECT_URLS (default: the service origin) */
                redirect_to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token_hash": "mN3s…",
                 *       "type": "invite"
                 *     }
                 */
                "application/json": {
                    /** @description The link's token */
                    token_hash?: string;
                    /** @description invite or recovery: the kind of link */
                    type?: string;
                };
            };
        };
        responses: {
            /** @description Signed in */
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
            /** @description Missing token_hash or type */
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
            /** @description otp_expired: used, replaced, expired or unknown */
            403: {
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
            /** @description Not a refusal of this operation, which takes no input: a request the HTTP server cannot read (400, or 431 for headers over its limit) or another method on this path (404, in the error shape). */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The service and its database answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "version": "1.0.0",
                     *       "database": "ok",
                     *       "replica": {
                     *         "state": "ok",
                     *         "lag_ms": 0,
                     *         "reads": "replica"
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        database: "ok";
                        /**
                         * @description The read replica (DATABASE_REPLICA_URL), when one is configured; absent otherwise. Its trouble never fails the check: its reads go to the primary.
                         * @example {
                         *       "state": "ok",
                         *       "lag_ms": 0,
                         *       "reads": "replica"
                         *     }
                         */
                        replica?: {
                            /** @description How far the replica was behind the primary at the last probe (every second); null when it did not answer */
                            lag_ms: number | null;
                            /** @description Where the reads allowed on the replica go now */
                            reads: "replica" | "primary";
                            /** @description ok: within REPLICA_MAX_LAG_MS; lagging: further behind; unreachable: it does not answer */
                            state: "ok" | "lagging" | "unreachable";
                        };
                        /** @enum {string} */
                        status: "ok";
                        version: string;
                    };
                };
            };
            /** @description The database does not answer within two seconds */
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
