import math

def main():
    r = input()
    print "%d %d"%(math.pi*r*r, 2*math.pi*r)


# loop
main()
