# coding: utf-8
def main():
    A, B = (int(V) for V in raw_input().split())
    for D in range(min(A, B), 0, -1):
        if A % D == 0 and B % D == 0:
            print D
            break


if __name__ == "__main__":
    main()
