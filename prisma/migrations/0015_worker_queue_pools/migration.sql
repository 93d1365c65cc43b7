-- The queue pools a worker process takes tasks with (one per queue runner): the tasks a
-- vanished worker held locked are found by them and released.
ALTER TABLE "worker_instances" ADD COLUMN "queue_pool_ids" TEXT[];
