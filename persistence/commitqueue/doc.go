// Package commitqueue is the group-commit queue both storage backends write through: Ops
// queued in memory, committed by one goroutine in one transaction per batch, and the waits
// of Sync, SyncRecords and Flush for them (Queue); and which queued Ops a read of records
// waits for (RecordsThrough). A backend supplies only how a batch is committed (Backend).
package commitqueue
