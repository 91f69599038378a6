#!/usr/bin/env python3
# ITP1_4_B Circle
def main():
    r=float(input().split()[0])
    # solve
    pi=3.141592653589793
    print("%.6f %.6f" % (pi * r * r,2 * pi * r))
if __name__ == "__main__":
    # answer
    main()
