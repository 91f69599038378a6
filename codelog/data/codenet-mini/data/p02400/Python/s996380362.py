from math import pi

vals = eval(input())
print("{:.6f} {:.6f}".format(pi * vals ** 2, 2 * pi * vals))
