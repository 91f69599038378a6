import math
def main():
    while True:
        try:
            a, b = map(int, input().split())
        except EOFError:
            break
        print(int(math.log10(a + b)))
if __name__ == "__main__":
    main()
