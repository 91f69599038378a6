r = float(raw_input())
print "%.6f %.6f" % (22 / 7 * r * r, 2 * 22 / 7 * r)
