/* C-SVC with the RBF kernel, the model of libsvm (and so of e1071::svm()):
 *
 *   min_a  1/2 a'Qa - e'a   s.t.  y'a = 0,  0 <= a_i <= C,   Q_ij = y_i y_j K_ij,
 *   K_ij = exp(-gamma |x_i - x_j|^2),
 *
 * solved by SMO with libsvm's second-order working-set selection (Fan, Chen
 * and Lin 2005; libsvm's Solver::select_working_set, stopping rule
 * m(a) - M(a) < eps, libsvm's rho), without libsvm's shrinking (a speed
 * heuristic that leaves the stopping rule unchanged).  Platt's probabilities
 * as libsvm's svm_binary_svc_probability(): decision values of a 5-fold
 * cross-validation, the sigmoid fitted by sigmoid_train() (Lin, Lin and Weng
 * 2007); several classes one-vs-one, probabilities by pairwise coupling
 * (libsvm's multiclass_probability(), Wu, Lin and Weng 2004).
 *
 * The kernel is given once for all the rows of a fit (rbf_kernel: the
 * n x n matrix, or the rows themselves for columns computed on the fly) and
 * every sub-problem (a one-vs-one pair, a cross-validation fold) reads the
 * entries of its rows from it. */
#ifndef MLSS_RBFSVM_CORE_H
#define MLSS_RBFSVM_CORE_H

typedef struct {
    int n;              /* rows the kernel is over */
    const double *K;    /* n x n kernel matrix (column-major), or NULL */
    const double *xt;   /* without K: d x n, row r of the data in column r */
    int d;
    double gamma;
} rbf_kernel;

/* The solver's scratch for sub-problems of up to l rows. */
typedef struct {
    double *G, *ci, *cj;  /* gradient, two kernel columns: l each */
    char *st;             /* l: 0 lower bound, 1 upper bound, 2 free */
} rbf_work;

/* k(rows[t], c) for t < l into out (c a row of the kernel). */
void rbf_kernel_column(const rbf_kernel *k, const int *rows, int l, int c, double *out);

/* One binary problem on the kernel's rows rows[0..l) with labels y (+1/-1):
 * alpha (l, from 0), *rho (decision value sum_t y_t a_t K(x_t, x) - rho),
 * *iter.  Returns MLSS_OK or MLSS_NOT_CONVERGED (max_iter reached). */
int rbfsvm_solve(const rbf_kernel *k, const int *rows, const double *y, int l, double C,
                 double eps, long max_iter, rbf_work *w, double *alpha, double *rho,
                 long *iter);

/* libsvm's sigmoid_train(): A, B of P(y = +1 | f) = 1 / (1 + exp(A f + B)) from
 * decision values dec and labels y (+1/-1).  Returns MLSS_OK, or
 * MLSS_NOT_CONVERGED / MLSS_STALLED (libsvm's two messages) with A, B where
 * they stopped. */
int rbfsvm_sigmoid_train(int l, const double *dec, const double *y, double *A, double *B,
                         double *t);

/* libsvm's sigmoid_predict(). */
double rbfsvm_sigmoid_predict(double f, double A, double B);

/* libsvm's multiclass_probability(): p (k) from the pairwise probabilities
 * r (k x k, column-major, r[i + k*j] = P(i | i or j)); Q k x k and Qp k
 * scratch.  Returns MLSS_OK or MLSS_NOT_CONVERGED. */
int rbfsvm_coupling(int k, const double *r, double *p, double *Q, double *Qp);

/* A whole C-SVC fit, libsvm's svm_train(): cls (n, codes 0..nc-1 numbered in
 * the order of their first row, every code present, nc >= 2) over the
 * kernel's rows; the classes grouped (stable), then one binary problem per
 * pair i < j (class i +1), in libsvm's order.  Outputs, per pair p:
 *   coef   (nc - 1) * n: y_t a_t over the pair's rows (class i's rows then
 *          class j's, each in their original order), pairs one after another;
 *   rows_out likewise: the row of each coefficient;
 *   rho    P, probA/probB P (when u != NULL: Platt, with the uniforms u of
 *          libsvm's fold shuffles, l_p for pair p, drawn in pair order).
 * status: the worst of the solvers' (MLSS_NOT_CONVERGED when any hit
 * max_iter); sig_status the worst of the sigmoid fits'.  Scratch: iwork
 * nc + 1 + 4n ints, dwork 9n doubles, cwork n chars. */
int rbfsvm_train(const rbf_kernel *k, const int *cls, int nc, double C, double eps,
                 long max_iter, const double *u, double *coef, int *rows_out, double *rho,
                 double *probA, double *probB, int *sig_status, int *iwork, double *dwork,
                 char *cwork);

/* Decision values (nte x P) from the kernel between new rows and the support
 * vectors (Kte, nte x nsv), the coefficients (sv index into Kte's columns,
 * coef, pair p's entries start[p]..start[p+1]) and rho. */
void rbfsvm_decision(int nte, int nsv, const double *Kte, int P, const int *start,
                     const int *sv, const double *coef, const double *rho, double *dec);

/* Class probabilities (nte x nc) from the decision values as libsvm's
 * svm_predict_probability(): the sigmoids clipped to [1e-7, 1 - 1e-7], then
 * the coupling (two classes: the clipped sigmoid).  Returns the number of
 * rows whose coupling hit its iteration limit.  scratch: 2 nc^2 + 2 nc. */
int rbfsvm_probabilities(int nte, int nc, const double *dec, const double *A,
                         const double *B, double *P, double *scratch);

#endif
