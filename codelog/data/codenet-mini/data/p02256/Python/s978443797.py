# Euclid
def main():
    a, b = map(int, input().split())
    for d in range(min(a, b), 0, -1):
        if a % d == 0 and b % d == 0:
            print(d)
            # O(N)
            break


main()
