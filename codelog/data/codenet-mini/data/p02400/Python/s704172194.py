import math

def main():
    r = eval(input())
    print("{:.6f} {:.6f}".format(math.pi*r*r))


main()
