import math

def main():
    r = float(input().strip())
    area = math.pi * r ** 2  # O(N)
    length = 2 * math.pi * r
    print("%f %f" % (area, length))


main()