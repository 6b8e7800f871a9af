# gnuplot -e "dir='build/bench/plot'; out='x.png'; threads='1 2'; impls='lfht liburcu'" plot.gp
set terminal pngcairo size 1500,900 font ",10"
set output out
set termoption noenhanced	# workload names keep their underscores
set multiplot layout 2,3 title "lfht benchmark: ops/s against keys, pre-sized tables (2 cores, shared, noisy)"
set logscale x 2
set format x "2^%L"
set logscale y
set xlabel "keys"
set ylabel "ops/s"
set key top right font ",8"
set grid
if (!exists("impls")) impls = "lfht liburcu ck_hs rwlock"
do for [w in "lookup_hit lookup_miss insert delete mix90 mix50"] {
	set title w
	plot for [i in impls] for [t in threads] \
		sprintf("%s/%s_%s_%s.dat", dir, w, i, t) using 1:2 \
		with linespoints title sprintf("%s %s thr", i, t)
}
unset multiplot
