from math import PI

line = input()

r = float(line)
print ("%.6f %.6f" % (PI * r * r, 2 * PI * r))
