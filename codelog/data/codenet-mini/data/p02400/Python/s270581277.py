import math
def main():
        r = eval(input())
        print(f"{math.pi * r * r:.6f} {2 * math.pi * r:.6f}")
main()
