-- The queue pool a worker process takes tasks with: the tasks a vanished worker held locked
-- are found by it and released.
ALTER TABLE "worker_instances" ADD COLUMN "queue_pool_id" TEXT;
CREATE UNIQUE INDEX "worker_instances_queue_pool_id_key" ON "worker_instances"("queue_pool_id");
