from math import gcd

def compute():
    ii,lst = [int(acc) for acc in input().split()]
    print(gcd(ii,lst))


if __name__ == "__main__":
    compute()
