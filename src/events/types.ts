/** A Queue message: a pointer to an outbox row. The row, in the tenant D1, is the source of truth. */
export interface EventMessage {
  tenantId: string;
  eventId: string;
  type: string;
}

/** An event as consumers see it. */
export interface DomainEvent {
  id: string;
  type: string;
  subjectId: string | null;
  payload: Record<string, unknown>;
  actor: string | null;
  createdAt: string;
}
