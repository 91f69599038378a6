import math

def main():
    r, n = map(float, input().split())
    print(round(math.pi*r*r, 6), round(2*math.pi*r, 6))


main()
