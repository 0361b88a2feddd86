/*
 * transport_mpi.c - ranks that are MPI processes (transport.h): Debian's OpenMPI starts them
 * (mpirun), places them, and carries the messages (shared memory on one host, the network
 * between hosts).  Messages are bytes on MPI_COMM_WORLD's duplicate, so our tags never meet the
 * program's own messages.  Built without MPI, pw_comm_mpi says so.
 */
#include <stdlib.h>

#include "transport.h"
#include "../core/alloc.h"
#include "../core/status_detail.h"

#ifdef PW_HAVE_MPI
#include <limits.h>
#include <mpi.h>

static int we_initialised; /* pw_comm_finalize finalises only what pw_comm_mpi started */

typedef struct mpi_ctx {
    MPI_Comm comm;
} mpi_ctx;

static pw_status mpi_status(int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return PW_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    pw_set_error_detail("%s: %.*s", what, len, text);
    return PW_ERR_INTERNAL;
}

typedef struct mpi_request {
    MPI_Request r; /* first: the request is used where an MPI_Request * is */
    int is_send;
    size_t bytes; /* a receive: what must arrive (MPI takes a shorter message without a word) */
} mpi_request;

static pw_status mpi_isend(void *ctx, int peer, int tag, const void *buf, size_t bytes, void **request)
{
    if (bytes > INT_MAX) return PW_ERR_SIZE_OVERFLOW;
    mpi_request *r = pw_malloc(sizeof *r);
    if (!r) return PW_ERR_OUT_OF_MEMORY;
    r->is_send = 1;
    pw_status st = mpi_status(MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, tag, ((mpi_ctx *)ctx)->comm, &r->r), "MPI_Isend");
    if (st != PW_OK) free(r);
    else *request = r;
    return st;
}

static pw_status mpi_irecv(void *ctx, int peer, int tag, void *buf, size_t bytes, void **request)
{
    if (bytes > INT_MAX) return PW_ERR_SIZE_OVERFLOW;
    mpi_request *r = pw_malloc(sizeof *r);
    if (!r) return PW_ERR_OUT_OF_MEMORY;
    r->is_send = 0;
    r->bytes = bytes;
    pw_status st = mpi_status(MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, tag, ((mpi_ctx *)ctx)->comm, &r->r), "MPI_Irecv");
    if (st != PW_OK) free(r);
    else *request = r;
    return st;
}

static int mpi_test(void *ctx, void *request, pw_status *status)
{
    (void)ctx;
    mpi_request *r = request;
    int done = 0;
    MPI_Status s;
    *status = mpi_status(MPI_Test(&r->r, &done, &s), "MPI_Test");
    if (*status != PW_OK) done = 1;
    int count = 0;
    if (*status == PW_OK && done && !r->is_send && (MPI_Get_count(&s, MPI_BYTE, &count) != MPI_SUCCESS || (size_t)count != r->bytes)) {
        pw_set_error_detail("rank %d sent %d bytes where %zu were expected (tag %d)", s.MPI_SOURCE, count, r->bytes, s.MPI_TAG);
        *status = PW_ERR_INTERNAL;
    }
    if (done) free(r);
    return done;
}

static int mpi_cancel(void *ctx, void *request)
{
    (void)ctx;
    mpi_request *r = request;
    int done = 0, freed = 1;
    MPI_Test(&r->r, &done, MPI_STATUS_IGNORE);
    if (!done && !r->is_send) { /* a receive: cancelled, and complete once MPI says so */
        MPI_Cancel(&r->r);
        MPI_Wait(&r->r, MPI_STATUS_IGNORE);
    } else if (!done) { /* a send: let go; MPI may still read the buffer (cancelling sends can hang) */
        MPI_Request_free(&r->r);
        freed = 0;
    }
    free(r);
    return freed;
}

static pw_status mpi_allgather(void *ctx, const void *mine, void *all, size_t bytes)
{
    if (bytes > INT_MAX) return PW_ERR_SIZE_OVERFLOW;
    return mpi_status(MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, ((mpi_ctx *)ctx)->comm),
                      "MPI_Allgather");
}

static void mpi_destroy(void *ctx)
{
    mpi_ctx *c = ctx;
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&c->comm);
    free(c);
}

/* No allgather_within: an MPI collective cannot be timed out portably.  MPI_Iallgather could be
 * polled against a deadline, but a collective request cannot be cancelled (MPI_Cancel of one is
 * erroneous) or left behind (MPI would still read this rank's entry and write every rank's, and a
 * late rank would join it, not its own call's), and ending it needs fault tolerance that is not
 * standard (ULFM's MPIX_Comm_revoke).  So a rank that never makes a pw_dist_* call leaves the
 * others in MPI_Allgather until the job's own limit ends them (docs/DISTRIBUTED.md, "Failures"). */
static const pw_transport_ops mpi_ops = {mpi_isend, mpi_irecv, mpi_test, mpi_cancel, mpi_allgather, mpi_destroy, NULL};

pw_status pw_comm_mpi(pw_comm **comm)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    int initialized = 0, level = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &level) != MPI_SUCCESS) {
            pw_set_error_detail("MPI_Init_thread failed");
            return PW_ERR_INTERNAL;
        }
        we_initialised = 1;
    } else {
        MPI_Query_thread(&level);
    }
    if (level < MPI_THREAD_SERIALIZED) {
        pw_set_error_detail("MPI gives thread level %d: the band link's thread needs MPI_THREAD_SERIALIZED", level);
        return PW_ERR_UNSUPPORTED;
    }
    mpi_ctx *c = pw_malloc(sizeof *c);
    pw_comm *p = pw_malloc(sizeof *p);
    if (!c || !p) {
        free(c);
        free(p);
        return PW_ERR_OUT_OF_MEMORY;
    }
    int rank = 0, size = 1;
    pw_status st = mpi_status(MPI_Comm_dup(MPI_COMM_WORLD, &c->comm), "MPI_Comm_dup");
    if (st == PW_OK) {
        MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN); /* errors become statuses, not exits */
        MPI_Comm_rank(c->comm, &rank);
        MPI_Comm_size(c->comm, &size);
    } else {
        free(c);
        free(p);
        return st;
    }
    unsigned char *scratch = pw_malloc(pw_comm_scratch_bytes(size));
    if (!scratch) {
        MPI_Comm_free(&c->comm);
        free(c);
        free(p);
        return PW_ERR_OUT_OF_MEMORY;
    }
    *p = (pw_comm){.ops = &mpi_ops, .ctx = c, .rank = rank, .size = size, .scratch = scratch, .tag_runs = 4096u, .failure_from = -1};
    int *tag_ub = NULL, has_ub = 0; /* the largest tag (OpenMPI: 2^31 - 1; the standard: >= 32767) */
    MPI_Comm_get_attr(c->comm, MPI_TAG_UB, &tag_ub, &has_ub);
    p->tag_runs = has_ub && tag_ub && *tag_ub >= 4096 * PW_TAG_KINDS ? (unsigned)((*tag_ub + 1LL) / PW_TAG_KINDS) : 4096u;
    *comm = p;
    return PW_OK;
}

void pw_comm_finalize(void)
{
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (we_initialised && !finalized) MPI_Finalize();
    we_initialised = 0;
}

#else /* built without MPI */

pw_status pw_comm_mpi(pw_comm **comm)
{
    if (!comm) return PW_ERR_NULL_ARGUMENT;
    pw_set_error_detail("this build has no MPI (install Debian's libopenmpi-dev and build again)");
    return PW_ERR_UNSUPPORTED;
}

void pw_comm_finalize(void) {}

#endif
