def main():
    S = input().strip()
    T = list(S)
    for I in range(len(T)):
        if T[I] == "1":
            T[I] = "9"
        else:
            T[I] = "1"
    print("".join(T))
if __name__ == "__main__":
    main()
