import sys
import math

def main():

        pairs=[list(map(int, L.split())) for L in sys.stdin]

        for A, B in pairs:
                print int(math.log10(A+B))


if __name__=="__main__":

        main()
